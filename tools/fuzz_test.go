package tools

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mneme-mcp/mneme/memory"
)

// FuzzToolArguments sends arbitrary bytes as the JSON arguments of a tool:
// the first byte picks the tool in All's order (0 remember, 1 recall,
// 2 forget, then the tools added after them), the rest are the arguments.
// Each input goes to the handler directly, which sees whatever decodes
// (there is no schema validation on that path), and, when it is JSON, over
// the protocol through an in-process client. Neither may panic or answer an
// argument problem with a Go or internal error; a rejected call must say
// why in words and leave the store as it was.
//
// Run it with: go test -run='^$' -fuzz=FuzzToolArguments -fuzztime=30s ./tools
func FuzzToolArguments(f *testing.F) {
	fx := fuzzFixture(f)
	tools := All(fx.deps)
	var seeded []string
	for _, d := range []memory.Draft{
		{Content: "Gus is allergic to peanuts", Kind: memory.KindThought, Tags: []string{"health"}},
		{Content: "User lives in Lisbon", Kind: memory.KindFact, Subject: "user", Predicate: "lives in", Object: "Lisbon"},
		{Content: "Tried the new espresso machine", Kind: memory.KindEpisode, Observation: "it leaked", Time: epoch.Add(-72 * time.Hour)},
	} {
		m, _, err := fx.store.Remember(f.Context(), d)
		if err != nil {
			f.Fatalf("seed: %v", err)
		}
		seeded = append(seeded, m.ID)
	}
	c := hostileConnect(f, fx.deps)

	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		st := tools[int(data[0])%len(tools)]
		args := data[1:]
		name := st.Tool.Name

		before := fx.hostileState(t)
		var req mcp.CallToolRequest
		req.Params.Name = name
		req.Params.Arguments = json.RawMessage(args)
		res, err := st.Handler(t.Context(), req)
		switch {
		case err != nil:
			t.Fatalf("%s %q: Go error: %v", name, args, err)
		case res == nil:
			t.Fatalf("%s %q: nil result", name, args)
		case res.IsError:
			if p := hostileTextProblem(resultText(res)); p != "" {
				t.Fatalf("%s %q: error text is %s: %s", name, args, p, hostileShort(resultText(res)))
			}
			if after := fx.hostileState(t); after != before {
				t.Fatalf("%s %q: store changed by a rejected call\nbefore %s\nafter  %s", name, args, hostileShort(before), hostileShort(after))
			}
		default:
			fx.hostileReset(t, seeded)
		}

		if !json.Valid(args) {
			return
		}
		before = fx.hostileState(t)
		res, err = c.call(t.Context(), name, string(args))
		switch {
		case err != nil && errors.Is(err, mcp.ErrInternalError):
			t.Fatalf("%s %q over the protocol: internal error: %v", name, args, err)
		case err != nil:
			// The protocol refused the request (parse error, invalid
			// params) before any tool ran.
		case res.IsError:
			if p := hostileTextProblem(resultText(res)); p != "" {
				t.Fatalf("%s %q over the protocol: error text is %s: %s", name, args, p, hostileShort(resultText(res)))
			}
		default:
			fx.hostileReset(t, seeded)
			return
		}
		if after := fx.hostileState(t); after != before {
			t.Fatalf("%s %q over the protocol: store changed by a rejected call\nbefore %s\nafter  %s", name, args, hostileShort(before), hostileShort(after))
		}
	})
}

// fuzzFixture is newFixture for a fuzz target: one real store for all the
// inputs a fuzzing process runs.
func fuzzFixture(f *testing.F) *fixture {
	f.Helper()
	return openFixture(f, false)
}
