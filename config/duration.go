package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Duration is a time.Duration that reads and writes as text, for the TOML
// file and environment variables. It accepts Go's syntax ("720h", "90m",
// "1h30m") plus d (24h) and w (7 days) units, alone or combined ("30d", "2w",
// "1w3d", "1.5d"). It is written back as whole days ("30d") when it is a
// multiple of 24h, else in Go's syntax.
type Duration struct{ time.Duration }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(text []byte) error {
	v, err := parseDuration(string(text))
	if err != nil {
		return err
	}
	d.Duration = v
	return nil
}

// MarshalText implements encoding.TextMarshaler.
func (d Duration) MarshalText() ([]byte, error) {
	return []byte(d.String()), nil
}

// String returns the text form written by MarshalText.
func (d Duration) String() string {
	const day = 24 * time.Hour
	if d.Duration != 0 && d.Duration%day == 0 {
		return strconv.FormatInt(int64(d.Duration/day), 10) + "d"
	}
	return d.Duration.String()
}

// parseDuration is time.ParseDuration with d and w units: every d or w
// component is rewritten in hours before Go parses the whole.
func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, errors.New("empty duration: use a number with a unit such as 720h, 30d or 2w")
	}
	if !strings.ContainsAny(s, "dw") {
		v, err := time.ParseDuration(s)
		if err != nil {
			return 0, fmt.Errorf("invalid duration %q: use a number with a unit such as 720h, 30d or 2w", s)
		}
		return v, nil
	}
	var b strings.Builder
	rest := s
	if rest[0] == '-' || rest[0] == '+' {
		b.WriteByte(rest[0])
		rest = rest[1:]
	}
	for rest != "" {
		i := 0
		for i < len(rest) && (rest[i] == '.' || rest[i] >= '0' && rest[i] <= '9') {
			i++
		}
		num := rest[:i]
		j := i
		for j < len(rest) && !(rest[j] == '.' || rest[j] >= '0' && rest[j] <= '9') {
			j++
		}
		unit := rest[i:j]
		rest = rest[j:]
		if num == "" || unit == "" {
			return 0, fmt.Errorf("invalid duration %q: use a number with a unit such as 720h, 30d or 2w", s)
		}
		hours := 0.0
		switch unit {
		case "d":
			hours = 24
		case "w":
			hours = 7 * 24
		default:
			b.WriteString(num + unit)
			continue
		}
		f, err := strconv.ParseFloat(num, 64)
		if err != nil {
			return 0, fmt.Errorf("invalid duration %q: use a number with a unit such as 720h, 30d or 2w", s)
		}
		b.WriteString(strconv.FormatFloat(f*hours, 'f', -1, 64) + "h")
	}
	v, err := time.ParseDuration(b.String())
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q: use a number with a unit such as 720h, 30d or 2w", s)
	}
	return v, nil
}
