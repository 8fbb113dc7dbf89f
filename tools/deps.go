// Package tools exposes the memory store as MCP tools and resources. It is
// the only package that imports mcp-go's server: each tool lives in its own
// file as a constructor returning the tool and its handler, All is the one
// registration list, and NewServer builds a server without a transport.
//
// Everything here is safe to call concurrently; the handlers built from a
// Deps are safe for concurrent use when its Store is (*memory.Store is).
// Mistakes the model can fix come back as tool results with IsError and a
// sentence saying what to change; Go errors are for infrastructure only.
package tools

import (
	"context"
	"log/slog"
	"time"

	"github.com/mneme-mcp/mneme/memory"
	"github.com/mneme-mcp/mneme/ontology"
)

// Store is the narrow view of the memory store the tools need;
// *memory.Store satisfies it. Implementations must be safe for concurrent
// use, because the server calls tools concurrently.
type Store interface {
	Remember(ctx context.Context, d memory.Draft) (memory.Memory, memory.Outcome, error)
	Get(ctx context.Context, ids []string) ([]memory.Memory, error)
	Recall(ctx context.Context, q memory.Query) (memory.Result, error)
	Forget(ctx context.Context, r memory.ForgetRequest) (memory.ForgetResult, error)
	History(ctx context.Context, id string) ([]memory.Version, error)
	Stats(ctx context.Context) (memory.Stats, error)

	Apply(ctx context.Context, ops []memory.Op, dryRun bool) (memory.ApplyResult, error)
	List(ctx context.Context, f memory.ListFilter) ([]memory.Memory, error)
	Similar(ctx context.Context, id string, k int, minCosine float64) ([]memory.Suggestion, error)
	Reinforce(ctx context.Context, ids []string) error
	LastConsolidated(ctx context.Context, scope string) (time.Time, error)
	MarkConsolidated(ctx context.Context, scope string, at time.Time) error
}

var _ Store = (*memory.Store)(nil)

// DefaultBudget is the character budget of a recall reply when Deps.Budget
// is zero.
const DefaultBudget = 6000

// Deps holds everything the tools depend on. Only Store is required; zero
// fields take the defaults documented on each. A Deps is a value: the tools
// copy it when they are built and never change it.
type Deps struct {
	Store        Store
	Logger       *slog.Logger     // infrastructure errors; nil = discard
	Now          func() time.Time // clock for ages and default times; nil = time.Now
	Location     *time.Location   // zone for dates shown and for times without one; nil = time.Local
	DayFirst     bool             // read an ambiguous numeric date ("5/4/2023") day first
	DefaultScope string           // the personal scope: used when a call names none and no project is known, and searched besides a project; "" = the store's default
	Budget       int              // character budget of a recall reply; <= 0 = DefaultBudget
	Version      string           // server version reported to clients; "" = "dev"

	// Ontology is the tag tree the tools tag with and the ontology tool
	// shows and extends; nil = the embedded default, read-only.
	Ontology *ontology.Manager
	// FixedScope is a scope the user fixed (--scope, MNEME_SCOPE): every
	// call that names no scope uses it, searched alone, and the client's
	// roots are never asked. "" = derive a project scope from the client's
	// workspace roots when it offers them (see scope.go).
	FixedScope string
	// SamplingTimeout bounds one round of sampling requests to a client on
	// a protocol before 2026-07-28; <= 0 = DefaultSamplingTimeout.
	SamplingTimeout time.Duration

	roots *rootsCache // project scopes by client, shared by a server's tools; set by All
}

// tree returns the current ontology: the manager's, or the default.
func (d Deps) tree() *ontology.Ontology {
	if d.Ontology != nil {
		return d.Ontology.Current()
	}
	return ontology.Default()
}

// withDefaults returns d with its zero fields set to their defaults.
func (d Deps) withDefaults() Deps {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Location == nil {
		d.Location = time.Local
	}
	if d.Budget <= 0 {
		d.Budget = DefaultBudget
	}
	if d.Version == "" {
		d.Version = "dev"
	}
	return d
}
