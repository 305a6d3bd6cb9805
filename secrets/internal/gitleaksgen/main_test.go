package main

import (
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"

	"github.com/guardian-agent/guardian-go/secrets"
)

// TestTableIsCurrent: secrets/catalog_gen.go is what this generator
// writes from the gitleaks version go.mod requires: bumping gitleaks or
// changing the generator without running go generate fails here.
func TestTableIsCurrent(t *testing.T) {
	want, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../catalog_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatal("secrets/catalog_gen.go is stale: run go generate ./secrets")
	}
}

// TestFormatsAreRefused: for every format of the table, tokens drawn at
// random from its steps match the gitleaks rule it came from (the
// translation is faithful) and are refused by secrets.CheckText in
// prose and secrets.CheckArgs as an argument.
func TestFormatsAreRefused(t *testing.T) {
	v := viper.New()
	v.SetConfigType("toml")
	if err := v.ReadConfig(strings.NewReader(config.DefaultConfig)); err != nil {
		t.Fatal(err)
	}
	var vc config.ViperConfig
	if err := v.Unmarshal(&vc); err != nil {
		t.Fatal(err)
	}
	cfg, err := vc.Translate()
	if err != nil {
		t.Fatal(err)
	}
	formats := map[string][][]step{}
	for id, r := range cfg.Rules {
		if r.Regex == nil || strings.Contains(r.Regex.String(), `[\w.-]{0,50}?`) {
			continue
		}
		if seqs, err := shapes(r.Regex.String()); err == nil {
			formats[id] = seqs
		}
	}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, seed))
	tried, refused := 0, 0
	for id, seqs := range formats {
		rule := cfg.Rules[id]
		for _, s := range seqs {
			for range 5 {
				tok := draw(r, s)
				if !rule.Regex.MatchString(" " + tok + " ") {
					t.Errorf("%s: a token drawn from its steps does not match its rule", id)
					continue
				}
				if rule.Entropy > 0 && shannon(tok) < rule.Entropy {
					continue // gitleaks would not report it either
				}
				tried++
				if secrets.CheckText("/d", "uses "+tok+" to sign in") == nil || secrets.CheckArgs("/a", []string{"-y", "pkg", tok}) == nil {
					t.Errorf("%s: a token of its format is not refused", id)
					continue
				}
				refused++
			}
		}
	}
	t.Logf("%d formats, %d tokens drawn, %d refused", len(formats), tried, refused)
}

// draw is a random string the steps match: each step's length between
// its bounds (long ones capped), each byte from its set, letters and
// digits preferred where the set has them.
func draw(r *rand.Rand, steps []step) string {
	var b strings.Builder
	for _, st := range steps {
		n := st.min
		if st.max > st.min {
			n += r.IntN(min(st.max, st.min+40) - st.min + 1)
		}
		var alnum, all []byte
		for c := 0; c < 128; c++ {
			if st.set[c/64]&(1<<(c%64)) != 0 {
				all = append(all, byte(c))
				if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
					alnum = append(alnum, byte(c))
				}
			}
		}
		pool := alnum
		if len(pool) == 0 {
			pool = all
		}
		for range n {
			b.WriteByte(pool[r.IntN(len(pool))])
		}
	}
	return b.String()
}

func shannon(s string) float64 {
	var counts [256]float64
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := c / float64(len(s))
			h -= p * log2(p)
		}
	}
	return h
}

func log2(x float64) float64 { return math.Log2(x) }
