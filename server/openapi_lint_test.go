package server_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenAPIValid checks openapi.json with a real OpenAPI validator
// (swagger-parser under Node, installed by `npm ci` in
// testdata/openapi, which .ci/run does). Without Node or the package the
// test skips and says how to run it.
func TestOpenAPIValid(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "openapi")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("Node.js is not installed: the OpenAPI document is not validated")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@apidevtools", "swagger-parser")); err != nil {
		t.Skipf("swagger-parser is not installed: run `npm ci` in server/%s", filepath.ToSlash(dir))
	}
	abs, err := filepath.Abs("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "validate.mjs", abs)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "valid: ") {
		t.Fatalf("openapi.json is not a valid OpenAPI document: %v\n%s", err, out)
	}
}
