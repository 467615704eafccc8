package cli_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate"
	"github.com/toolgate/toolgate/integrations/notify/webhook"
)

// TestServeNotifies runs `toolgate serve` with a webhook notifier in its
// config: a pending call is posted, signed, to a receiver; the receiver's
// deny link answers it on the gateway, once; and /metrics shows the
// notifier's health. It checks the wiring the notifier packages' own
// tests cannot: config, routes, dispatcher and metrics in one process.
func TestServeNotifies(t *testing.T) {
	if testing.Short() {
		t.Skip("starts gateway processes")
	}
	t.Parallel()
	const secret = "serve-test-webhook-secret"
	var mu sync.Mutex
	var posts []webhook.Payload
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !webhook.Verify(secret, body, r.Header.Get(webhook.SignatureHeader)) {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		var p webhook.Payload
		json.Unmarshal(body, &p)
		mu.Lock()
		posts = append(posts, p)
		mu.Unlock()
	}))
	t.Cleanup(recv.Close)

	bin := toolgateBinary(t)
	data := t.TempDir()
	config := filepath.Join(data, "toolgate.yaml")
	os.WriteFile(config, []byte("notify:\n  webhook:\n    url: "+recv.URL+"/hook\n    secret: ${HOOK_SECRET}\n    public_url: https://gate.example.com\n"), 0o600)
	g := startGateway(t, bin, data, "TOOLGATE_CONFIG="+config, "HOOK_SECRET="+secret)
	agent := newClient(t, g.url, createToken(t, bin, data, "agent"))
	admin := newClient(t, g.url, g.token)

	r, err := agent.Submit(context.Background(), bash("s1", "c1", "terraform destroy"))
	if err != nil || r.Approval == nil {
		t.Fatalf("submit: %v %+v", err, r)
	}
	var link string
	for deadline := time.Now().Add(10 * time.Second); link == ""; time.Sleep(20 * time.Millisecond) {
		mu.Lock()
		for _, p := range posts {
			if p.Type == toolgate.EventApprovalRequested && p.Approval.ID == r.Approval.ID {
				link = p.Links["deny"]
			}
		}
		mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatal("no webhook post for the pending call")
		}
	}
	local := g.url + strings.TrimPrefix(link, "https://gate.example.com")
	for i, want := range []int{http.StatusOK, http.StatusForbidden} {
		resp, err := http.Post(local, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Fatalf("press %d of the deny link: %d, want %d", i+1, resp.StatusCode, want)
		}
	}
	a, err := admin.Approval(context.Background(), r.Approval.ID)
	if err != nil || a.Status != toolgate.StatusDenied || a.Resolution.Via != "webhook" {
		t.Fatalf("after the link: %+v %v", a, err)
	}
	req, _ := http.NewRequest(http.MethodGet, g.url+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+g.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `toolgate_notifier_up{notifier="webhook"} 1`) {
		t.Fatalf("/metrics has no notifier health:\n%s", body)
	}
}
