package definition

// VetFull is Vet without its memo: what vetting a tool costs when it is
// recorded anew (BenchmarkVet).
func VetFull(d *Definition, t Tool) error { return d.vetFull(t, nil) }
