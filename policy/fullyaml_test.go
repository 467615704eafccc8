package policy

// The tests read configs with every YAML feature toolgate accepts, so
// they link the full reader as the toolgate binary does.
import _ "github.com/toolgate/toolgate/internal/yamltree/yamlv3"
