package eval_test

import (
	"context"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// browserCheck runs in the report once the browser has laid it out and
// appends <pre id="browser-check"> with "ok" or "FAIL" and what failed,
// then a line of counts. A plot fails when it is smaller than 200×100 px,
// has no bar, a bar leaves the SVG or runs past an axis line, two bars
// overlap, or a label is cut off; an <img> when it did not load; a sample
// when a text box is empty or nothing in it is marked; the page when it
// is wider than the window.
const browserCheck = `<script>
window.addEventListener('load', function () {
  var fail = [], bars = 0, marks = 0;
  function inside(b, box) { return b.left >= box.left - 1 && b.right <= box.right + 1 && b.top >= box.top - 1 && b.bottom <= box.bottom + 1; }
  document.querySelectorAll('img').forEach(function (im, i) {
    if (!im.complete || im.naturalWidth === 0) fail.push('img ' + i + ' did not load: ' + im.src.slice(0, 60));
  });
  var plots = document.querySelectorAll('svg');
  if (plots.length === 0) fail.push('no plot');
  plots.forEach(function (svg, i) {
    var box = svg.getBoundingClientRect();
    if (box.width < 200 || box.height < 100) { fail.push('plot ' + i + ' is ' + box.width + 'x' + box.height + ' px'); return; }
    var axes = [], rects = [];
    svg.querySelectorAll('path').forEach(function (p) {
      var st = getComputedStyle(p), b = p.getBoundingClientRect();
      if (st.stroke === 'rgb(0, 0, 0)' && st.fill === 'none' && (b.width > 100 || b.height > 100)) axes.push(b);
      if (st.fill === 'rgb(0, 114, 178)' && b.width >= 1 && b.height >= 1) rects.push(b);
    });
    if (axes.length !== 2) fail.push('plot ' + i + ': ' + axes.length + ' axis lines');
    if (rects.length === 0) fail.push('plot ' + i + ' has no bar');
    rects.forEach(function (b, k) {
      if (!inside(b, box)) fail.push('plot ' + i + ': bar ' + k + ' leaves the plot');
      axes.forEach(function (a) {
        if (a.height < 2 && (b.left < a.left - 1 || b.right > a.right + 1 || b.bottom > a.bottom + 1)) fail.push('plot ' + i + ': bar ' + k + ' runs past the horizontal axis');
        if (a.width < 2 && (b.top < a.top - 1 || b.bottom > a.bottom + 1 || b.left < a.left - 1)) fail.push('plot ' + i + ': bar ' + k + ' runs past the vertical axis');
      });
      rects.slice(k + 1).forEach(function (c) {
        if (Math.min(b.right, c.right) - Math.max(b.left, c.left) > 1 && Math.min(b.bottom, c.bottom) - Math.max(b.top, c.top) > 1) fail.push('plot ' + i + ': bars ' + k + ' overlap');
      });
    });
    bars += rects.length;
    svg.querySelectorAll('text').forEach(function (t) {
      var b = t.getBoundingClientRect();
      if (t.textContent.trim() !== '' && (b.width < 1 || !inside(b, box))) fail.push('plot ' + i + ': label "' + t.textContent + '" cut off');
    });
  });
  var samples = document.querySelectorAll('.sample');
  samples.forEach(function (s, i) {
    var texts = s.querySelectorAll('.text');
    if (texts.length !== 2) fail.push('sample ' + i + ': ' + texts.length + ' text boxes');
    texts.forEach(function (t, j) {
      var m = t.querySelectorAll('mark');
      if (t.innerText.trim() === '' || t.getBoundingClientRect().height < 20) fail.push('sample ' + i + ' text ' + j + ' is empty');
      if (m.length === 0) fail.push('sample ' + i + ' text ' + j + ': nothing marked');
      marks += m.length;
    });
  });
  if (document.documentElement.scrollWidth > window.innerWidth + 1) fail.push('the page is ' + document.documentElement.scrollWidth + ' px wide in a ' + window.innerWidth + ' px window');
  var pre = document.createElement('pre');
  pre.id = 'browser-check';
  pre.textContent = (fail.length ? 'FAIL\n' + fail.join('\n') : 'ok') + '\nplots ' + plots.length + ' bars ' + bars + ' samples ' + samples.length + ' marks ' + marks;
  document.body.appendChild(pre);
});
</script>
`

var browserCheckResult = regexp.MustCompile(`(?s)<pre id="browser-check">(.*?)</pre>`)

// The report as a browser shows it: with NDD_CHROMIUM set to a Chromium
// binary (make report-browser-check), the report of the testdata job (or
// the file NDD_REPORT_HTML) is opened in headless Chromium with
// browserCheck added, and the page it leaves is read back with --dump-dom.
// NDD_REPORT_SCREENSHOT=FILE.png also saves a screenshot, 1280 px wide.
// Skipped without NDD_CHROMIUM: go test ./... needs no browser.
func TestRunReportInBrowser(t *testing.T) {
	chromium := os.Getenv("NDD_CHROMIUM")
	if chromium == "" {
		t.Skip("NDD_CHROMIUM not set (make report-browser-check sets it)")
	}
	var page []byte
	samples := 6
	if path := os.Getenv("NDD_REPORT_HTML"); path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		page, samples = b, -1
	} else {
		_, page = buildReport(t, jobOutput(t), samples)
	}
	i := strings.LastIndex(string(page), "</body>")
	if i < 0 {
		t.Fatal("the report has no </body>")
	}
	dir := t.TempDir()
	checked := filepath.Join(dir, "report.html")
	if err := os.WriteFile(checked, []byte(string(page[:i])+browserCheck+string(page[i:])), 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := []string{"--headless", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
		"--user-data-dir=" + filepath.Join(dir, "profile"), "--window-size=1280,2000", "--virtual-time-budget=10000"}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox") // Chromium refuses to run as root with its sandbox
	}
	out, err := exec.CommandContext(ctx, chromium, append(args, "--dump-dom", "file://"+checked)...).Output()
	if err != nil {
		t.Fatalf("%s --dump-dom: %v", chromium, err)
	}
	m := browserCheckResult.FindSubmatch(out)
	if m == nil {
		t.Fatalf("the check did not run in the browser; the page it left:\n%.2000s", out)
	}
	res := html.UnescapeString(string(m[1]))
	t.Logf("Chromium: %s", res)
	if !strings.HasPrefix(res, "ok\n") {
		t.Errorf("the report in Chromium:\n%s", res)
	}
	var plots, bars, nSamples, marks int
	last := res[strings.LastIndex(res, "\n")+1:]
	for k, v := range map[string]*int{"plots": &plots, "bars": &bars, "samples": &nSamples, "marks": &marks} {
		f := strings.Fields(last)
		for j := 0; j+1 < len(f); j++ {
			if f[j] == k {
				*v, _ = strconv.Atoi(f[j+1])
			}
		}
	}
	if samples >= 0 && (plots != 4 || bars < 4 || nSamples != samples || marks < 2*samples) {
		t.Errorf("Chromium saw %d plots, %d bars, %d samples, %d marks; want 4 plots with bars and %d samples, each side marked", plots, bars, nSamples, marks, samples)
	}

	if shot := os.Getenv("NDD_REPORT_SCREENSHOT"); shot != "" {
		abs, err := filepath.Abs(shot)
		if err != nil {
			t.Fatal(err)
		}
		for k, a := range args {
			if strings.HasPrefix(a, "--window-size=") {
				args[k] = "--window-size=1280,6000" // tall enough for the plots and the first samples
			}
		}
		if out, err := exec.CommandContext(ctx, chromium, append(args, "--screenshot="+abs, "file://"+checked)...).CombinedOutput(); err != nil {
			t.Fatalf("%s --screenshot: %v\n%s", chromium, err, out)
		}
		t.Logf("screenshot in %s", abs)
	}
}
