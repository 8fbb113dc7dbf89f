package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mneme-mcp/mneme/memory"
)

// Resource addresses.
const (
	StatsURI          = "mneme://stats"
	MemoryURITemplate = "mneme://memories/{id}"
	memoryURIPrefix   = "mneme://memories/"
)

// StatsResource returns the mneme://stats resource: the store's summary as JSON.
func StatsResource(d Deps) server.ServerResource {
	d = d.withDefaults()
	res := mcp.NewResource(StatsURI, "stats",
		mcp.WithResourceTitle("Memory store statistics"),
		mcp.WithResourceDescription("How many memories are active and archived, per scope and kind, and which store and embedding model are in use."),
		mcp.WithMIMEType("application/json"),
	)
	return server.ServerResource{Resource: res, Handler: func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		st, err := d.Store.Stats(ctx)
		if err != nil {
			return nil, fmt.Errorf("stats: %w", err)
		}
		return jsonContents(req.Params.URI, st)
	}}
}

// MemoryDocument is the content of a mneme://memories/{id} resource.
type MemoryDocument struct {
	Memory  memory.Memory    `json:"memory"`
	History []memory.Version `json:"history"`
}

// MemoryResource returns the mneme://memories/{id} resource template: one
// memory and its earlier versions as JSON.
func MemoryResource(d Deps) server.ServerResourceTemplate {
	d = d.withDefaults()
	tmpl := mcp.NewResourceTemplate(MemoryURITemplate, "memory",
		mcp.WithTemplateTitle("Memory"),
		mcp.WithTemplateDescription("One memory by id, whole, with its earlier versions (history), as JSON."),
		mcp.WithTemplateMIMEType("application/json"),
	)
	return server.ServerResourceTemplate{Template: tmpl, Handler: func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		id, err := url.PathUnescape(strings.TrimPrefix(req.Params.URI, memoryURIPrefix))
		if err != nil || id == "" || strings.Contains(id, "/") {
			return nil, fmt.Errorf("memory resource %s: want %s: %w", memory.Quote(req.Params.URI), MemoryURITemplate, mcp.ErrResourceNotFound)
		}
		ms, err := d.Store.Get(ctx, []string{id})
		if errors.Is(err, memory.ErrNotFound) {
			return nil, fmt.Errorf("memory %s: %w", memory.Clip(id), mcp.ErrResourceNotFound)
		}
		if err != nil {
			return nil, fmt.Errorf("memory %s: %w", id, err)
		}
		if len(ms) != 1 {
			return nil, fmt.Errorf("memory %s: %w", id, mcp.ErrResourceNotFound)
		}
		versions, err := d.Store.History(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("memory %s history: %w", id, err)
		}
		if versions == nil {
			versions = []memory.Version{}
		}
		return jsonContents(req.Params.URI, MemoryDocument{Memory: ms[0], History: versions})
	}}
}

// jsonContents returns v as one JSON text content at uri.
func jsonContents(uri string, v any) ([]mcp.ResourceContents, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", uri, err)
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: "application/json", Text: string(data)}}, nil
}
