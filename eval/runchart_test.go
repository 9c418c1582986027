package eval

import (
	"regexp"
	"strings"
	"testing"
)

func TestCountAxis(t *testing.T) {
	for _, c := range []struct{ largest, step, top int }{
		{0, 1, 1}, {1, 1, 2}, {5, 1, 6}, {6, 2, 8}, {10, 2, 12}, {11, 2, 12}, {34, 10, 40}, {320, 100, 400}, {999, 200, 1000}, {1000, 200, 1200},
	} {
		if step, top := countAxis(c.largest); step != c.step || top != c.top {
			t.Errorf("countAxis(%d) = step %d, top %d; want %d, %d", c.largest, step, top, c.step, c.top)
		}
	}
}

func TestIntTicks(t *testing.T) {
	var got []string
	for _, tk := range (intTicks{Step: 2}).Ticks(0, 9) {
		got = append(got, tk.Label)
	}
	if strings.Join(got, " ") != "0 2 4 6 8" {
		t.Errorf("ticks from 0 to 9 by 2: %q", got)
	}
}

// Count axes are labelled with integers only, however few the counts; the
// category labels are all there.
func TestBarChartIntegerTicks(t *testing.T) {
	for _, c := range []barChart{
		{Title: "one", CountLabel: "pages", Labels: []string{"a"}, Counts: []int{1}},
		{Title: "two", CountLabel: "pages", Labels: []string{"a", "b"}, Counts: []int{1, 3}},
		{Title: "hosts", CountLabel: "pages", Labels: []string{"example.org", "www.example.com"}, Counts: []int{7, 2}, Horizontal: true},
	} {
		svg, err := c.SVG()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(svg), "<svg") {
			t.Errorf("%s: %.40q is not an <svg> element", c.Title, svg)
		}
		var nums []string
		for _, m := range regexp.MustCompile(`>([0-9.,]+)</text>`).FindAllStringSubmatch(string(svg), -1) {
			nums = append(nums, m[1])
			if strings.ContainsAny(m[1], ".,") {
				t.Errorf("%s: tick label %q", c.Title, m[1])
			}
		}
		if len(nums) < 2 {
			t.Errorf("%s: tick labels %q", c.Title, nums)
		}
		for _, l := range c.Labels {
			if !strings.Contains(string(svg), ">"+l+"</text>") {
				t.Errorf("%s: no label %q", c.Title, l)
			}
		}
	}
}
