package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mneme-mcp/mneme/memory"
)

// connect starts an in-process client on the server built from f's deps,
// with output validation on so a result that breaks its own schema fails.
func (f *fixture) connect(t *testing.T) (*client.Client, *mcp.InitializeResult) {
	t.Helper()
	return startClient(t, newServer(f.deps, server.WithOutputSchemaValidation()), "tools-test")
}

// startClient connects an in-process client with opts to srv, initialised
// as name; it is closed when the test ends.
func startClient(t testing.TB, srv *server.MCPServer, name string, opts ...client.ClientOption) (*client.Client, *mcp.InitializeResult) {
	t.Helper()
	c, err := client.NewInProcessClientWithOptions(srv, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := c.Start(t.Context()); err != nil {
		t.Fatalf("start: %v", err)
	}
	var init mcp.InitializeRequest
	init.Params.ClientInfo = mcp.Implementation{Name: name, Version: "1"}
	res, err := c.Initialize(t.Context(), init)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return c, res
}

// callOverProtocol calls a tool through the client and decodes its structured
// content into T; a tool error fails the test.
func callOverProtocol[T any](t *testing.T, c *client.Client, name string, args map[string]any) (T, string) {
	t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: tool error: %s", name, resultText(res))
	}
	if res.StructuredContent == nil {
		t.Fatalf("%s: no structured content", name)
	}
	return decode[T](t, res.StructuredContent), resultText(res)
}

func TestServerInitialize(t *testing.T) {
	f := newFixture(t)
	c, init := f.connect(t)
	if init.ServerInfo.Name != "mneme" || init.ServerInfo.Version != "test" {
		t.Errorf("server info = %+v", init.ServerInfo)
	}
	if !strings.Contains(init.Instructions, "When to recall") {
		t.Errorf("instructions missing: %q", init.Instructions)
	}
	if init.Capabilities.Tools == nil || init.Capabilities.Resources == nil {
		t.Errorf("capabilities = %+v", init.Capabilities)
	}
	list, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "consolidate,forget,ontology,recall,remember" {
		t.Errorf("tools = %v", names)
	}
}

func TestProtocolRemember(t *testing.T) {
	f := newFixture(t)
	c, _ := f.connect(t)
	out, text := callOverProtocol[RememberOutput](t, c, "remember", map[string]any{
		"content": "Gus is allergic to peanuts", "tags": []any{"health"},
	})
	if out.ID == "" || out.Content != "Gus is allergic to peanuts" || text != "remembered "+out.ID+": Gus is allergic to peanuts" {
		t.Errorf("out = %+v, text %q", out, text)
	}

	// The input schema is enforced: a misspelt argument is a tool error the
	// model can read, and nothing is stored.
	var req mcp.CallToolRequest
	req.Params.Name = "remember"
	req.Params.Arguments = map[string]any{"contnet": "typo"}
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError {
		t.Errorf("misspelt argument accepted: %s", resultText(res))
	}
	if st := f.stats(t); st.Memories != 1 {
		t.Errorf("memories = %d, want 1", st.Memories)
	}
}

func TestProtocolRecall(t *testing.T) {
	f := newFixture(t)
	c, _ := f.connect(t)
	m, _ := callOverProtocol[RememberOutput](t, c, "remember", map[string]any{"content": "Hana runs the Tuesday book club"})
	out, text := callOverProtocol[RecallOutput](t, c, "recall", map[string]any{"query": "book club"})
	if len(out.Memories) != 1 || out.Memories[0].ID != m.ID || !strings.Contains(text, "id="+m.ID) {
		t.Errorf("recall = %+v, %q", out, text)
	}
	byID, _ := callOverProtocol[RecallOutput](t, c, "recall", map[string]any{"ids": []any{m.ID}, "history": true})
	if len(byID.Memories) != 1 || byID.Memories[0].Content != m.Content {
		t.Errorf("by id = %+v", byID)
	}
}

func TestProtocolForget(t *testing.T) {
	f := newFixture(t)
	c, _ := f.connect(t)
	m, _ := callOverProtocol[RememberOutput](t, c, "remember", map[string]any{"content": "Ida's locker code is 4711"})
	out, text := callOverProtocol[ForgetOutput](t, c, "forget", map[string]any{"id": m.ID, "purge": true})
	if len(out.IDs) != 1 || out.Purged == nil || *out.Purged != 1 || !strings.Contains(text, "for good") {
		t.Errorf("forget = %+v, %q", out, text)
	}
}

func TestProtocolResources(t *testing.T) {
	f := newFixture(t)
	c, _ := f.connect(t)
	m, _ := callOverProtocol[RememberOutput](t, c, "remember", map[string]any{"content": "Jo's flat is on the third floor"})
	callOverProtocol[RememberOutput](t, c, "remember", map[string]any{"id": m.ID, "content": "Jo's flat is on the fourth floor"})

	list, err := c.ListResources(t.Context(), mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Resources) != 1 || list.Resources[0].URI != StatsURI {
		t.Errorf("resources = %+v", list.Resources)
	}
	templates, err := c.ListResourceTemplates(t.Context(), mcp.ListResourceTemplatesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate.Raw() != MemoryURITemplate {
		t.Errorf("templates = %+v", templates.ResourceTemplates)
	}

	var stats memory.Stats
	readJSON(t, c, StatsURI, &stats)
	if stats.Memories != 1 || stats.Model == "" {
		t.Errorf("stats = %+v", stats)
	}

	var doc MemoryDocument
	readJSON(t, c, memoryURIPrefix+m.ID, &doc)
	if doc.Memory.ID != m.ID || doc.Memory.Content != "Jo's flat is on the fourth floor" || len(doc.History) != 1 || doc.History[0].Memory.Content != m.Content {
		t.Errorf("memory document = %+v", doc)
	}

	var req mcp.ReadResourceRequest
	req.Params.URI = memoryURIPrefix + "no-such-id"
	if _, err := c.ReadResource(t.Context(), req); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("unknown memory: err = %v, want not found", err)
	}
}

// readJSON reads one resource and decodes its JSON text into v.
func readJSON(t *testing.T, c *client.Client, uri string, v any) {
	t.Helper()
	var req mcp.ReadResourceRequest
	req.Params.URI = uri
	res, err := c.ReadResource(t.Context(), req)
	if err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	if len(res.Contents) != 1 {
		t.Fatalf("read %s: %d contents", uri, len(res.Contents))
	}
	tc, ok := mcp.AsTextResourceContents(res.Contents[0])
	if !ok || tc.MIMEType != "application/json" {
		t.Fatalf("read %s: contents %+v", uri, res.Contents[0])
	}
	if err := json.Unmarshal([]byte(tc.Text), v); err != nil {
		t.Fatalf("read %s: %v", uri, err)
	}
}
