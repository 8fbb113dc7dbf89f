package tools

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mneme-mcp/mneme/prompts"
)

// All returns every tool with its handler: the one registration list. The
// handlers are safe for concurrent use when d.Store is. They share one
// cache of project scopes by client (see scope.go).
func All(d Deps) []server.ServerTool {
	if d.roots == nil {
		d.roots = newRootsCache()
	}
	constructors := []func(Deps) (mcp.Tool, server.ToolHandlerFunc){
		Remember,
		Recall,
		Forget,
		Consolidate,
		Ontology,
	}
	tools := make([]server.ServerTool, 0, len(constructors))
	for _, c := range constructors {
		tool, handler := c(d)
		tools = append(tools, server.ServerTool{Tool: tool, Handler: handler})
	}
	return tools
}

// NewServer builds the MCP server: tools, resources, prompts and instructions, with
// panic recovery and input validation on. It starts no transport; the
// caller serves it over stdio or HTTP.
func NewServer(d Deps) *server.MCPServer {
	return newServer(d)
}

// newServer is NewServer with extra options, for tests (output validation).
func newServer(d Deps, extra ...server.ServerOption) *server.MCPServer {
	d = d.withDefaults()
	d.roots = newRootsCache()
	hooks := &server.Hooks{}
	shortenSchemaErrors(hooks)
	opts := append([]server.ServerOption{
		server.WithHooks(hooks),
		server.WithRecovery(),
		server.WithInputSchemaValidation(),
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(false, false),
		server.WithPromptCapabilities(false),
		server.WithLogging(),
		server.WithInstructions(prompts.Instructions()),
	}, extra...)
	s := server.NewMCPServer("mneme", d.Version, opts...)
	// A session's cached project scope goes when its roots change or it ends.
	s.AddNotificationHandler(mcp.MethodNotificationRootsListChanged, func(ctx context.Context, _ mcp.JSONRPCNotification) {
		id := ""
		if session := server.ClientSessionFromContext(ctx); session != nil {
			id = session.SessionID()
		}
		d.roots.forgetSession(id)
	})
	if h := s.GetHooks(); h != nil {
		h.AddOnUnregisterSession(func(_ context.Context, session server.ClientSession) {
			d.roots.forgetSession(session.SessionID())
		})
	}
	s.AddTools(All(d)...)
	s.AddResources(StatsResource(d))
	s.AddResourceTemplates(MemoryResource(d))
	s.AddPrompts(Prompts(d)...)
	return s
}
