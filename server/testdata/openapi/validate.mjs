// Validates an OpenAPI document with swagger-parser (schema and semantic
// checks) and prints "valid: TITLE VERSION" or the error, exit 1.
import SwaggerParser from "@apidevtools/swagger-parser";

const file = process.argv[2];
try {
  const api = await SwaggerParser.validate(file);
  console.log(`valid: ${api.info.title} ${api.info.version}`);
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
