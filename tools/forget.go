package tools

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mneme-mcp/mneme/memory"
)

// ForgetInput is the input of the forget tool.
type ForgetInput struct {
	ID     string        `json:"id,omitempty" jsonschema:"the id of one memory to forget"`
	IDs    []string      `json:"ids,omitempty" jsonschema:"the ids of several memories to forget, at most 1000 per call"`
	Filter *ForgetFilter `json:"filter,omitempty" jsonschema:"forget every memory matching all of these instead of naming ids"`
	DryRun bool          `json:"dry_run,omitempty" jsonschema:"only list what would be forgotten; change nothing"`
	Purge  bool          `json:"purge,omitempty" jsonschema:"delete for good instead of archiving (default false: archived memories can be recalled with include_archived); only when the user asks for deletion"`
}

// ForgetFilter selects memories to forget by scope, tag and time.
type ForgetFilter struct {
	Scope  string `json:"scope,omitempty" jsonschema:"only memories in this scope (default the server's scope)"`
	Tag    string `json:"tag,omitempty" jsonschema:"only memories with this tag"`
	Before string `json:"before,omitempty" jsonschema:"only memories that happened before this time: RFC 3339 or a date like 2026-05-01 or words like last month"`
}

// ForgetOutput is what forget returns.
type ForgetOutput struct {
	IDs      []string `json:"ids" jsonschema:"the memories forgotten (or that would be, on a dry run)"`
	Archived *int     `json:"archived,omitempty" jsonschema:"how many were archived, recoverable (or would be, on a dry run)"`
	Purged   *int     `json:"purged,omitempty" jsonschema:"how many were deleted for good (or would be, on a dry run)"`
	DryRun   bool     `json:"dry_run" jsonschema:"true when nothing was changed"`
}

// maxForgetIDs bounds the ids of one forget call (one transaction).
const maxForgetIDs = 1000

// forgetDescription tells the model when and how to call forget.
const forgetDescription = `Forget memories the user wants gone or that are wrong, by id (from recall) or by filter (scope, tag, before).
By default memories are archived, not deleted: they leave recall but can be found again with recall include_archived. purge deletes them for good; use it only when the user asks for deletion.
Use dry_run first to see what a filter would forget. To correct a memory, prefer remember with its id; a new fact supersedes the old one by itself.`

// Forget returns the forget tool and its handler.
//
// Hints: destructive (it removes memories from recall, and purge deletes them
// for good); idempotent: forgetting what is already forgotten changes nothing.
func Forget(d Deps) (mcp.Tool, server.ToolHandlerFunc) {
	d = d.withDefaults()
	tool := mcp.NewTool("forget",
		mcp.WithDescription(forgetDescription),
		mcp.WithInputSchema[ForgetInput](),
		withBounds(map[string]map[string]any{"ids": {"maxItems": maxForgetIDs}}),
		mcp.WithOutputSchema[ForgetOutput](),
		mcp.WithTitleAnnotation("Forget"),
		mcp.WithReadOnlyHintAnnotation(false),
		mcp.WithDestructiveHintAnnotation(true),
		mcp.WithIdempotentHintAnnotation(true),
		mcp.WithOpenWorldHintAnnotation(false),
	)
	return tool, mcp.NewTypedToolHandler(func(ctx context.Context, call mcp.CallToolRequest, in ForgetInput) (*mcp.CallToolResult, error) {
		req, err := d.forgetRequest(in)
		if err != nil {
			return d.failure("forget", err)
		}
		if len(req.IDs) == 0 && req.Scope == "" { // a filter without scope: the call's scope
			cs := d.resolveScope(ctx, call, "")
			if cs.pending {
				return d.askRoots(call), nil
			}
			req.Scope = cs.scope
		}
		res, err := d.Store.Forget(ctx, req)
		if err != nil {
			return d.failure("forget", err)
		}
		if len(res.IDs) == 0 && len(req.IDs) == 0 {
			return mcp.NewToolResultError("no memory matched the filter, nothing was changed: recall with the same scope, tags or time to see what exists"), nil
		}
		n := len(res.IDs)
		out := ForgetOutput{IDs: res.IDs, DryRun: res.DryRun}
		if req.Purge {
			out.Purged = &n
		} else {
			out.Archived = &n
		}
		return mcp.NewToolResultStructured(out, forgetText(out)), nil
	})
}

// forgetRequest validates the input and builds the store request.
func (d Deps) forgetRequest(in ForgetInput) (memory.ForgetRequest, error) {
	ids, err := checkIDs("ids", in.IDs, maxForgetIDs, "split the call into several of at most 1000 ids, or forget by filter")
	if err != nil {
		return memory.ForgetRequest{}, err
	}
	if id := strings.TrimSpace(in.ID); id != "" && !slices.Contains(ids, id) {
		ids = append([]string{id}, ids...)
	}
	req := memory.ForgetRequest{IDs: ids, DryRun: in.DryRun, Purge: in.Purge}
	f := in.Filter
	hasFilter := f != nil && (f.Scope != "" || f.Tag != "" || f.Before != "")
	switch {
	case len(ids) > 0 && hasFilter:
		return memory.ForgetRequest{}, invalidf("give either id/ids or filter, not both")
	case len(ids) > 0:
		return req, nil
	case !hasFilter:
		return memory.ForgetRequest{}, invalidf("forget needs id, ids or a filter with scope, tag or before: recall first to find the ids")
	}
	if f.Tag != "" {
		tag, err := checkTag(f.Tag)
		if err != nil {
			return memory.ForgetRequest{}, err
		}
		req.Tag = tag
	}
	if f.Before != "" {
		before, err := d.parseTime("filter before", f.Before, atStart)
		if err != nil {
			return memory.ForgetRequest{}, err
		}
		req.Before = before
	}
	req.Scope = strings.TrimSpace(f.Scope) // "" = the call's scope, resolved by the handler
	return req, nil
}

// forgetText is the readable version of a forget result.
func forgetText(out ForgetOutput) string {
	n, ids := len(out.IDs), strings.Join(out.IDs, ", ")
	switch {
	case n == 0:
		return "already archived, nothing changed (purge deletes archived memories for good)"
	case out.DryRun && out.Purged != nil:
		return fmt.Sprintf("dry run, nothing changed: would delete %s for good: %s", count(n), ids)
	case out.DryRun:
		return fmt.Sprintf("dry run, nothing changed: would archive %s: %s", count(n), ids)
	case out.Purged != nil:
		return fmt.Sprintf("deleted %s for good: %s", count(n), ids)
	}
	return fmt.Sprintf("archived %s (recoverable: recall with include_archived): %s", count(n), ids)
}

func count(n int) string {
	if n == 1 {
		return "1 memory"
	}
	return fmt.Sprintf("%d memories", n)
}
