package browsertest

import (
	"testing"
)

// BenchmarkColdLoad measures a first visit on a fresh profile over loopback:
// the time to the page's ready mark and the bytes transferred before it. It
// reports figures for `make bench`; no test asserts a time.
func BenchmarkColdLoad(b *testing.B) {
	needBrowser(b)
	var ms, transfer, module float64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		br := launch(b)
		p := br.NewPage(b)
		b.StartTimer()
		l := MeasureLoad(b, p, shared.URL())
		b.StopTimer()
		ms += l.ReadyMS
		transfer += float64(l.TransferBytes)
		module += float64(l.ModuleBytes)
		p.Close()
		_ = br.Close()
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(ms/n, "ms-to-ready")
	b.ReportMetric(transfer/n, "B-transferred")
	b.ReportMetric(module/n, "B-module")
	b.ReportMetric(0, "ns/op")
}
