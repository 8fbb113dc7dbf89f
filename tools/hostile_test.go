package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mneme-mcp/mneme/memory"
)

// The hostile tests send every tool in All garbage built from its own input
// schema (so tools added later are covered without changing this file) and
// check the issue "safe to run anywhere": no panic, no internal error for
// an argument problem, a readable sentence when a call is rejected, and a
// store left exactly as it was by every rejected call.

// hostileSchema is the part of a JSON schema the generator reads.
type hostileSchema struct {
	Type       json.RawMessage          `json:"type"`
	Properties map[string]hostileSchema `json:"properties"`
	Items      *hostileSchema           `json:"items"`
	Required   []string                 `json:"required"`
	Enum       []json.RawMessage        `json:"enum"`
}

// kind returns the schema's first type other than null, and whether null is
// allowed too; "" when the schema names no type.
func (s hostileSchema) kind() (typ string, nullable bool) {
	var types []string
	var one string
	if json.Unmarshal(s.Type, &one) == nil {
		types = []string{one}
	} else {
		_ = json.Unmarshal(s.Type, &types)
	}
	for _, t := range types {
		if t == "null" {
			nullable = true
		} else if typ == "" {
			typ = t
		}
	}
	return typ, nullable
}

// hostileInputSchema returns the tool's input schema as the generator reads it.
func hostileInputSchema(t testing.TB, tool mcp.Tool) hostileSchema {
	t.Helper()
	raw := []byte(tool.RawInputSchema)
	if len(raw) == 0 {
		var err error
		if raw, err = json.Marshal(tool.InputSchema); err != nil {
			t.Fatalf("%s: marshal input schema: %v", tool.Name, err)
		}
	}
	var s hostileSchema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("%s: input schema %s: %v", tool.Name, raw, err)
	}
	return s
}

// hostileValue is one argument value as raw JSON text, which may hold bytes
// that are not UTF-8 and numbers Go cannot represent. wrongType marks values
// of a type the schema does not allow, which must be rejected.
type hostileValue struct {
	name      string
	raw       string
	wrongType bool
}

// hostileJSON quotes s as a JSON string, escaping only what JSON requires, so
// bytes that are not UTF-8 reach the server as they are.
func hostileJSON(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// hostileNested returns depth levels of {"a": ...} (or [...]) around a string.
func hostileNested(depth int, array bool) string {
	start, end := `{"a":`, `}`
	if array {
		start, end = `[`, `]`
	}
	return strings.Repeat(start, depth) + `"deep"` + strings.Repeat(end, depth)
}

// hostileTexts is text a model or a broken client might send: oversized,
// not UTF-8, with NUL and control bytes, bidi and zero-width characters,
// emoji sequences, piles of combining marks, and syntax of the layers
// below (SQL, FTS5, LIKE, format verbs). Not all of it is invalid input.
var hostileTexts = []struct{ name, text string }{
	{"40KiB words", strings.Repeat("lorem ipsum ", 40*1024/12)},
	{"40KiB one word", strings.Repeat("a", 40*1024)},
	{"1MiB", strings.Repeat("word ", 1<<20/5)},
	{"10k lines", strings.Repeat("line\n", 10000)},
	{"invalid utf8", "bad \xff\xfe\xc3\x28 bytes \xed\xa0\x80"},
	{"nul", "nul\x00byte"},
	{"controls", "bell\a esc\x1b[31m del\x7f"},
	{"rtl", "\u202eevil\u202c مرحبا שלום"},
	{"zero width", "zero\u200bwidth\u200c\u200d\u2060\ufeff"},
	{"emoji", "👩‍👩‍👧‍👦 🏳️‍🌈 🇩🇪"},
	{"combining", "e" + strings.Repeat("\u0301\u0336", 300)},
	{"noncharacters", "\ufffe\uffff\U0010ffff"},
	{"whitespace", " \t\n\r\u00a0\u3000 "},
	{"sql", "'; DROP TABLE memories; --"},
	{"fts5", `"a" OR b* NEAR(c d) -e ^f {g} :h AND`},
	{"like", `%_%\`},
	{"format verbs", "%s %d %!v %n %x %%"},
	{"path", "../../../../etc/passwd"},
}

// hostileNumbers are numbers out of every range, as JSON text: 1e309 is
// valid JSON but no float64.
var hostileNumbers = []string{
	"1e309", "-1e309", "1e308", "-1", "0.5", "1e-400", "-0",
	"9223372036854775808", "-9223372036854775809", "99999999999999999999999", "2147483648",
}

// wrongTypes are values of the other JSON types than typ.
func hostileWrongTypes(typ string, nullable bool) []hostileValue {
	all := map[string][]string{
		"string":  {`42`, `true`, `["x"]`, `{"a":"b"}`},
		"integer": {`"5"`, `true`, `[1]`, `{}`, `1.5`},
		"number":  {`"5"`, `true`, `[1]`, `{}`},
		"boolean": {`"true"`, `1`, `{}`, `[]`},
		"array":   {`"x"`, `7`, `{"0":"x"}`, `false`},
		"object":  {`"x"`, `3`, `[]`, `true`},
	}
	var out []hostileValue
	for _, raw := range all[typ] {
		out = append(out, hostileValue{name: "wrong type " + raw, raw: raw, wrongType: true})
	}
	out = append(out, hostileValue{name: "null", raw: `null`, wrongType: typ != "" && !nullable})
	return out
}

// hostileValues generates the garbage for one property of schema s; ids
// are ids of stored memories, to mix with garbage in arrays.
func hostileValues(s hostileSchema, ids []string) []hostileValue {
	typ, nullable := s.kind()
	out := hostileWrongTypes(typ, nullable)
	out = append(out,
		hostileValue{name: "nested objects 1000", raw: hostileNested(1000, false), wrongType: typ != "object" && typ != ""},
		hostileValue{name: "nested objects 20000", raw: hostileNested(20000, false), wrongType: typ != "object" && typ != ""},
		hostileValue{name: "nested arrays 20000", raw: hostileNested(20000, true), wrongType: typ != "array" && typ != ""},
	)
	texts := func(prefix string) {
		for _, g := range hostileTexts {
			out = append(out, hostileValue{name: prefix + g.name, raw: hostileJSON(g.text)})
		}
		out = append(out, hostileValue{name: prefix + "lone surrogate", raw: `"\ud800 lone \udfff"`})
	}
	numbers := func() {
		for _, n := range hostileNumbers {
			out = append(out, hostileValue{name: "number " + n, raw: n})
		}
	}
	switch typ {
	case "string":
		texts("")
	case "integer", "number":
		numbers()
	case "array":
		many := func(n int, f func(i int) string) string {
			parts := make([]string, n)
			for i := range parts {
				parts[i] = f(i)
			}
			return "[" + strings.Join(parts, ",") + "]"
		}
		out = append(out,
			hostileValue{name: "1000 words", raw: many(1000, func(i int) string { return fmt.Sprintf(`"w%d"`, i) })},
			hostileValue{name: "1000 empty", raw: many(1000, func(int) string { return `""` })},
			hostileValue{name: "1000 copies of 1KiB", raw: many(1000, func(int) string { return hostileJSON(strings.Repeat("k", 1024)) })},
			// More than SQLite's 32766 variables per statement.
			hostileValue{name: "40000 words", raw: many(40000, func(i int) string { return fmt.Sprintf(`"w%d"`, i) })},
		)
		if len(ids) > 0 {
			q := hostileJSON(ids[0])
			out = append(out,
				hostileValue{name: "stored id then unknown", raw: "[" + q + `,"no-such-id"]`},
				hostileValue{name: "stored id then empty", raw: "[" + q + `,""]`},
				hostileValue{name: "stored id 1000 times", raw: many(1000, func(int) string { return q })},
			)
		}
		if s.Items == nil {
			for _, g := range hostileTexts {
				out = append(out, hostileValue{name: "[" + g.name + "]", raw: "[" + hostileJSON(g.text) + "]"})
			}
			break
		}
		// One element of garbage, built from the items' own schema.
		for _, v := range hostileValues(*s.Items, ids) {
			out = append(out, hostileValue{name: "[" + v.name + "]", raw: "[" + v.raw + "]", wrongType: v.wrongType})
		}
	case "object":
		names := slices.Sorted(maps.Keys(s.Properties))
		// The required properties are set, so the garbage in the others
		// gets past the schema.
		base := map[string]string{}
		for _, name := range s.Required {
			base[name] = hostileBenign(s.Properties[name])
		}
		for _, name := range names {
			for _, v := range hostileValues(s.Properties[name], ids) {
				args := maps.Clone(base)
				args[name] = v.raw
				out = append(out, hostileValue{name: name + "=" + v.name, raw: hostileObject(args), wrongType: v.wrongType})
			}
		}
		args := maps.Clone(base)
		args["zzz_unknown"] = "1"
		out = append(out, hostileValue{name: "unknown inner property", raw: hostileObject(args), wrongType: true})
	default:
		texts("")
		numbers()
	}
	return out
}

// hostileBenign returns a harmless valid value of the schema (its first
// enum value, or one of its type), for required properties of tools and
// objects this file does not know.
func hostileBenign(s hostileSchema) string {
	if len(s.Enum) > 0 {
		return string(s.Enum[0])
	}
	switch typ, _ := s.kind(); typ {
	case "integer", "number":
		return "1"
	case "boolean":
		return "false"
	case "array":
		return "[]"
	case "object":
		return "{}"
	}
	return `"hostile test"`
}

// hostileBaseline returns valid arguments of the tool, which each case
// changes in one property, so garbage gets past the checks of the other
// arguments. Destructive calls are dry runs where the tool has them.
func hostileBaseline(tool string, s hostileSchema, ids []string) map[string]string {
	switch tool {
	case "remember":
		return map[string]string{"content": `"hostile baseline: the garden gate squeaks"`}
	case "recall":
		return map[string]string{"query": `"garden"`}
	case "forget":
		return map[string]string{"id": hostileJSON(ids[0]), "dry_run": "true"}
	}
	base := map[string]string{}
	for _, name := range s.Required {
		base[name] = hostileBenign(s.Properties[name])
	}
	if p, ok := s.Properties["dry_run"]; ok {
		if typ, _ := p.kind(); typ == "boolean" {
			base["dry_run"] = "true"
		}
	}
	return base
}

// hostileObject renders arguments as a JSON object, keys sorted.
func hostileObject(args map[string]string) string {
	keys := slices.Sorted(maps.Keys(args))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = hostileJSON(k) + ":" + args[k]
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// hostileCase is one call: the tool's arguments as raw JSON.
type hostileCase struct {
	name      string
	args      string
	wrongType bool // must be rejected
}

// hostileCases generates every case for one tool.
func hostileCases(t testing.TB, tool mcp.Tool, ids []string) []hostileCase {
	s := hostileInputSchema(t, tool)
	base := hostileBaseline(tool.Name, s, ids)
	with := func(name, raw string) string {
		args := maps.Clone(base)
		args[name] = raw
		return hostileObject(args)
	}
	cases := []hostileCase{
		{name: "no arguments", args: `{}`},
		{name: "unknown property", args: with("zzz_unknown", `1`), wrongType: true},
		{name: "unknown property __proto__", args: with("__proto__", `{"polluted":true}`), wrongType: true},
		{name: "arguments array", args: `[` + hostileObject(base) + `]`, wrongType: true},
		{name: "arguments string", args: `"remember everything"`, wrongType: true},
		{name: "arguments number", args: `42`, wrongType: true},
		{name: "arguments true", args: `true`, wrongType: true},
		{name: "arguments deeply nested", args: hostileNested(5000, false), wrongType: true},
	}
	if len(base) > 0 {
		// A key given twice: Go keeps the last value, other parsers the first.
		first := slices.Sorted(maps.Keys(base))[0]
		cases = append(cases, hostileCase{name: "duplicate key " + first,
			args: strings.TrimSuffix(hostileObject(base), "}") + "," + hostileJSON(first) + ":" + hostileJSON("\x00duplicate") + "}"})
	}
	names := slices.Sorted(maps.Keys(s.Properties))
	for _, name := range names {
		for _, v := range hostileValues(s.Properties[name], ids) {
			cases = append(cases, hostileCase{name: name + ": " + v.name, args: with(name, v.raw), wrongType: v.wrongType})
		}
	}
	return cases
}

// seedHostile stores a thought, a fact and an episode, so recall and
// forget have targets, and returns their ids.
func seedHostile(t *testing.T, f *fixture) []string {
	t.Helper()
	var ids []string
	for _, args := range []map[string]any{
		{"content": "The garden gate squeaks and needs oil", "tags": []any{"home"}},
		{"content": "User lives in Lisbon", "subject": "user", "predicate": "lives in", "object": "Lisbon"},
		{"content": "Tried the new espresso machine", "observation": "it leaked", "action": "returned it", "time": "2026-05-01"},
	} {
		ids = append(ids, f.remember(t, args).ID)
	}
	return ids
}

// hostileState is what a rejected call must leave as it was: every memory,
// archived ones too, with its recall bookkeeping (count, strength, last
// recalled) and its updated time, which every change of a memory or its
// history moves. One query, because the race detector makes each slow.
func (f *fixture) hostileState(t testing.TB) string {
	t.Helper()
	ms, err := f.store.List(context.Background(), memory.ListFilter{IncludeArchived: true})
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	data, err := json.Marshal(ms)
	if err != nil {
		t.Fatalf("marshal store state: %v", err)
	}
	return string(data)
}

// hostileReset purges every memory but the seeded ones, so that what an
// accepted call stored does not slow down the calls after it.
func (f *fixture) hostileReset(t testing.TB, seeded []string) {
	t.Helper()
	ms, err := f.store.List(context.Background(), memory.ListFilter{IncludeArchived: true})
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	var extra []string
	for _, m := range ms {
		if !slices.Contains(seeded, m.ID) {
			extra = append(extra, m.ID)
		}
	}
	if len(extra) == 0 {
		return
	}
	if _, err := f.store.Forget(context.Background(), memory.ForgetRequest{IDs: extra, Purge: true}); err != nil {
		t.Fatalf("purge what accepted calls stored: %v", err)
	}
}

// hostileTextProblem says what is wrong with the text of a rejected call, or
// "" when it is a sentence a model can act on.
func hostileTextProblem(text string) string {
	lower := strings.ToLower(text)
	switch {
	case strings.TrimSpace(text) == "":
		return "empty error text"
	case !strings.Contains(strings.TrimSpace(text), " "):
		return "a single word, not a sentence"
	case strings.Contains(text, "goroutine "), strings.Contains(text, ".go:"), strings.Contains(lower, "panic"):
		return "a panic or stack trace"
	case strings.Contains(lower, "internal error"):
		return "an internal error"
	case strings.Contains(lower, "output schema validation"), strings.Contains(lower, "invalid structured content"):
		return "a result that breaks the tool's output schema"
	case len(text) > maxErrorBytes:
		return fmt.Sprintf("%d bytes, more than %d: it quotes an argument whole", len(text), maxErrorBytes)
	case strings.Contains(text, "&{"):
		return "a Go value, not words"
	}
	return ""
}

// maxErrorBytes bounds the text of a tool error: an argument is quoted
// cut short, never whole.
const maxErrorBytes = 1024

// hostileRaceLimit is the largest arguments sent under the race detector.
const hostileRaceLimit = 128 << 10

// hostileRace reports whether the test binary was built with -race.
func hostileRace() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

// hostileClient is an in-process client and the server it talks to.
type hostileClient struct {
	c   *client.Client
	srv *server.MCPServer
}

// hostileConnect starts an in-process client on a server built from d, with
// output validation on so a result that breaks its own schema fails.
func hostileConnect(t testing.TB, d Deps) *hostileClient {
	t.Helper()
	srv := newServer(d, server.WithOutputSchemaValidation())
	c, _ := startClient(t, srv, "tools-hostile")
	return &hostileClient{c: c, srv: srv}
}

// call sends raw arguments to a tool through the client. When the client
// cannot encode them (encoding/json refuses nesting deeper than 10000
// levels) the server gets the raw message, as from a client written in
// another language.
func (h *hostileClient) call(ctx context.Context, tool, args string) (*mcp.CallToolResult, error) {
	var req mcp.CallToolRequest
	req.Params.Name = tool
	req.Params.Arguments = json.RawMessage(args)
	res, err := h.c.CallTool(ctx, req)
	var te *transport.Error
	if !errors.As(err, &te) {
		return res, err
	}
	msg := `{"jsonrpc":"2.0","id":"hostile","method":"tools/call","params":{"name":` + hostileJSON(tool) + `,"arguments":` + args + `}}`
	data, err := json.Marshal(h.srv.HandleMessage(ctx, []byte(msg)))
	if err != nil {
		return nil, fmt.Errorf("encode the server's answer: %w", err)
	}
	var reply struct {
		Result *json.RawMessage         `json:"result"`
		Error  *mcp.JSONRPCErrorDetails `json:"error"`
	}
	if err := json.Unmarshal(data, &reply); err != nil {
		return nil, fmt.Errorf("decode the server's answer %s: %w", data, err)
	}
	if reply.Error != nil {
		return nil, reply.Error.AsError()
	}
	if reply.Result == nil {
		return nil, fmt.Errorf("the server answered neither result nor error: %s", data)
	}
	return mcp.ParseCallToolResult(reply.Result)
}

// hostileShort cuts long text for messages.
func hostileShort(s string) string {
	if len(s) > 300 {
		return fmt.Sprintf("%s… (%d bytes)", s[:300], len(s))
	}
	return s
}

func TestHostileArguments(t *testing.T) {
	for _, st := range All(Deps{}) { // only the definitions are read here
		tool := st.Tool
		t.Run(tool.Name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			ids := seedHostile(t, f)
			c := hostileConnect(t, f.deps)
			var rejected, accepted, protocol, bind int
			before := f.hostileState(t)
			race := hostileRace()
			for i, tc := range hostileCases(t, tool, ids) {
				if race && (i%4 != 0 || len(tc.args) > hostileRaceLimit) {
					// These calls are sequential, so the race detector
					// finds nothing in them and makes each ten times
					// slower (a 1 MiB call takes seconds): under -race a
					// quarter of the cases run, the plain run does all.
					continue
				}
				start := time.Now()
				res, err := c.call(t.Context(), tool.Name, tc.args)
				if d := time.Since(start); d > 2*time.Second {
					t.Logf("%s: slow: %v", tc.name, d)
				}
				switch {
				case err != nil && errors.Is(err, mcp.ErrInternalError):
					t.Errorf("%s: internal error for bad arguments: %v\nargs %s", tc.name, err, hostileShort(tc.args))
					continue
				case err != nil:
					// A JSON-RPC error (parse error, invalid params) is the
					// protocol refusing the request before any tool runs.
					protocol++
				case res.IsError:
					text := resultText(res)
					if p := hostileTextProblem(text); p != "" {
						t.Errorf("%s: error text is %s: %s\nargs %s", tc.name, p, hostileShort(text), hostileShort(tc.args))
					}
					if strings.HasPrefix(text, "failed to bind arguments") {
						bind++
					}
					rejected++
				default:
					if tc.wrongType {
						t.Errorf("%s: accepted arguments of the wrong type: %s\nargs %s", tc.name, hostileShort(resultText(res)), hostileShort(tc.args))
					}
					accepted++
					if len(tc.args) > 100<<10 {
						t.Logf("%s: accepted %d bytes of arguments", tc.name, len(tc.args))
					}
					f.hostileReset(t, ids) // an accepted call may change the store
					before = f.hostileState(t)
					continue
				}
				if after := f.hostileState(t); after != before {
					t.Errorf("%s: store changed by a rejected call\nargs %s\nbefore %s\nafter  %s", tc.name, hostileShort(tc.args), hostileShort(before), hostileShort(after))
					before = after
				}
			}
			t.Logf("%s: %d tool errors (%d from binding), %d protocol errors, %d accepted", tool.Name, rejected, bind, protocol, accepted)
		})
	}
}

// TestHostileRejectedWritesChangeNothing sends calls that would change the
// store if they were not rejected as a whole: a batch with one bad id, an
// update with a bad tag, a fact that cannot supersede.
func TestHostileRejectedWritesChangeNothing(t *testing.T) {
	f := newFixture(t)
	ids := seedHostile(t, f)
	c := hostileConnect(t, f.deps)
	q := hostileJSON(ids[0])
	cases := []struct{ tool, args string }{
		{"forget", `{"ids":[` + q + `,"no-such-id"]}`},
		{"forget", `{"ids":[` + q + `,"no-such-id"],"purge":true}`},
		{"forget", `{"ids":[` + q + `,""],"purge":true}`},
		{"forget", `{"ids":[` + q + `,"\u0000"]}`},
		{"forget", `{"id":` + q + `,"filter":{"tag":"home"}}`},
		{"forget", `{"id":` + q + `,"purge":"yes"}`},
		{"forget", `{"filter":{"tag":"home","before":"\u202e1 yad"}}`},
		{"remember", `{"id":` + q + `,"content":"The garden gate was oiled","tags":["bad tag"]}`},
		{"remember", `{"id":` + q + `,"content":"The garden gate was oiled","time":"\u0000"}`},
		{"remember", `{"id":` + q + `,"content":"` + strings.Repeat("x", 40*1024) + `"}`},
		{"remember", `{"id":"no-such-id","content":"The garden gate was oiled"}`},
		{"remember", `{"content":"User lives in Porto","subject":"user","predicate":"lives in","object":"Porto","kind":"fact\u0000"}`},
		{"remember", `{"content":"User lives in Porto","subject":"user","predicate":"lives in","object":"Porto","tags":["a","b","c","d"]}`},
		{"recall", `{"query":"garden","limit":51}`},
		{"recall", `{"query":"garden","limit":1e309}`},
		{"recall", `{"query":"garden","min_probability":2}`},
		{"recall", `{"query":"garden","offset":-1}`},
		{"recall", `{"query":"garden","from":"2026-05-02","to":"2026-05-01"}`},
		{"recall", `{"ids":[` + q + `,"no-such-id"],"reinforce":true}`},
		// consolidate applies its operations in one transaction: one bad
		// operation rejects them all.
		{"consolidate", `{"operations":[{"op":"archive","ids":[` + q + `]},{"op":"archive","ids":["no-such-id"]}]}`},
		{"consolidate", `{"operations":[{"op":"add","content":"The gate was oiled on 2026-05-10"},{"op":"add","content":""}]}`},
		{"consolidate", `{"operations":[{"op":"merge","ids":[` + q + `,"no-such-id"],"content":"merged"}]}`},
		{"consolidate", `{"operations":[{"op":"supersede","ids":[` + q + `],"by":"no-such-id"}]}`},
		{"consolidate", `{"operations":[{"op":"add","content":"fine","tags":["bad tag"]},{"op":"archive","ids":[` + q + `]}]}`},
		{"consolidate", `{"operations":[{"op":"archive","ids":[` + q + `]}],"transcript":[{"role":"user","content":"hi","time":"\u0000"}]}`},
	}
	known := map[string]bool{}
	for _, st := range All(f.deps) {
		known[st.Tool.Name] = true
	}
	before := f.hostileState(t)
	for _, tc := range cases {
		if !known[tc.tool] {
			continue
		}
		res, err := c.call(t.Context(), tc.tool, tc.args)
		switch {
		case err != nil && errors.Is(err, mcp.ErrInternalError):
			t.Errorf("%s %s: internal error: %v", tc.tool, hostileShort(tc.args), err)
		case err == nil && !res.IsError:
			t.Errorf("%s %s: accepted: %s", tc.tool, hostileShort(tc.args), hostileShort(resultText(res)))
		case err == nil:
			if p := hostileTextProblem(resultText(res)); p != "" {
				t.Errorf("%s %s: error text is %s: %s", tc.tool, hostileShort(tc.args), p, hostileShort(resultText(res)))
			}
		}
		if after := f.hostileState(t); after != before {
			t.Fatalf("%s %s: store changed by a rejected call\nbefore %s\nafter  %s", tc.tool, hostileShort(tc.args), hostileShort(before), hostileShort(after))
		}
	}
}

// TestHostileUnicodeRoundTrips stores text that is valid however strange it
// looks and checks that recall by id gives it back byte for byte.
func TestHostileUnicodeRoundTrips(t *testing.T) {
	f := newFixture(t)
	c, _ := f.connect(t)
	contents := []string{
		"Zoë's café opens at 7 — naïve façade",
		"RTL \u202eoverride\u202c and Arabic مرحبا and Hebrew שלום",
		"zero\u200bwidth\u200c joiners\u200d and\u2060 word joiner\ufeff inside",
		"family 👩‍👩‍👧‍👦 flag 🏳️‍🌈 country 🇩🇪 skin 👍🏽",
		"zalgo e" + strings.Repeat("\u0301\u0336", 200) + " ends",
		"decomposed e\u0301 and precomposed é are different bytes",
		"math 𝕳𝖊𝖑𝖑𝖔 and CJK 記憶 and Devanagari स्मृति",
		"noncharacters \ufffe\uffff and last plane \U0010fffd",
		"controls bell\a escape\x1b[31m delete\x7f tab\there",
		"line one\nline two\r\nline three\u2028line four\u2029end",
		"quotes \"double\" 'single' `back` <angle> & amp \\ backslash",
		"percent %s %d %!v %% and LIKE %_% chars",
		`fts5 "a" OR b* NEAR(c d) -e ^f {g} :h AND`,
		"sql '; DROP TABLE memories; --",
		"max " + strings.Repeat("ü", memory.MaxContentBytes/2-4) + " end",
	}
	for i, content := range contents {
		name := fmt.Sprintf("%d", i)
		t.Run(name, func(t *testing.T) {
			object := strings.TrimSpace(string([]rune(content)[:12]))
			out, _ := callOverProtocol[RememberOutput](t, c, "remember", map[string]any{
				"content": content, "subject": "Zoë\u200b", "predicate": "says\u00a0" + name, "object": object,
				"kind": "fact", "thread": "t\u202e" + name,
			})
			got, _ := callOverProtocol[RecallOutput](t, c, "recall", map[string]any{"ids": []any{out.ID}})
			if len(got.Memories) != 1 {
				t.Fatalf("fetched %d memories", len(got.Memories))
			}
			m := got.Memories[0]
			if m.Content != content {
				t.Errorf("content changed:\n got %+q\nwant %+q", hostileShort(m.Content), hostileShort(content))
			}
			if m.Subject != "Zoë\u200b" || m.Object != object {
				t.Errorf("fact fields changed: subject %+q object %+q", m.Subject, m.Object)
			}
			stored, err := f.store.Get(t.Context(), []string{out.ID})
			if err != nil || stored[0].Content != content || stored[0].Thread != "t\u202e"+name {
				t.Errorf("stored = %+v, %v", stored, err)
			}
		})
	}
}
