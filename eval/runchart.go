package eval

import (
	"bytes"
	"fmt"
	"html/template"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// barChart is a bar chart of counts, one bar per label, drawn with
// gonum.org/v1/plot as SVG for inlining in the run report. The count axis
// starts at 0, ends one tick step above the largest count and has integer
// ticks only; the category axis leaves half a category of room at both
// ends, and the bars fill 70 % of a category, so no bar runs past the axes.
type barChart struct {
	Title      string
	CatLabel   string // label of the category axis ("" for none)
	CountLabel string // label of the count axis
	Labels     []string
	Counts     []int
	Horizontal bool // categories on the Y axis, largest at the top (for long names)
}

// intTicks marks every Step-th integer from 0, labelled without decimals.
type intTicks struct{ Step int }

func (t intTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for v := 0; float64(v) <= hi; v += t.Step {
		if float64(v) >= lo {
			out = append(out, plot.Tick{Value: float64(v), Label: strconv.Itoa(v)})
		}
	}
	return out
}

// countAxis returns the tick step (1, 2, 5, 10, 20, 50, …: at most five
// steps up to the largest count) and the axis end (one step above it).
func countAxis(largest int) (step, top int) {
	for base := 1; ; base *= 10 {
		for _, m := range []int{1, 2, 5} {
			if step = base * m; largest/step <= 5 {
				return step, (largest/step + 1) * step
			}
		}
	}
}

// SVG draws the chart; it returns the <svg> element alone (no XML prolog),
// ready to inline in HTML.
func (c barChart) SVG() (template.HTML, error) {
	n := len(c.Labels)
	if n == 0 || n != len(c.Counts) {
		return "", fmt.Errorf("chart %q: %d labels, %d counts", c.Title, n, len(c.Counts))
	}
	labels, vals := slices.Clone(c.Labels), make(plotter.Values, n)
	largest := 0
	for i, v := range c.Counts {
		vals[i] = float64(v)
		largest = max(largest, v)
	}
	if c.Horizontal { // largest at the top
		slices.Reverse(labels)
		slices.Reverse(vals)
	}
	step, top := countAxis(largest)

	w, h := 7*vg.Inch, 3.6*vg.Inch
	catLen := w - 1.2*vg.Inch // the category axis, about: the canvas less the count axis and margins
	if c.Horizontal {
		h = vg.Length(n)*0.32*vg.Inch + 1.3*vg.Inch
		catLen = h - 1.2*vg.Inch
	}
	bars, err := plotter.NewBarChart(vals, 0.7*catLen/vg.Length(n))
	if err != nil {
		return "", err
	}
	bars.Color = plotColors[2]
	bars.LineStyle.Width = 0
	bars.Horizontal = c.Horizontal // before Add, which takes the axis ranges from it

	pl := plot.New()
	pl.Title.Text = c.Title
	pl.Add(&plotter.Grid{Vertical: gridLine(c.Horizontal), Horizontal: gridLine(!c.Horizontal)}, bars)
	cat, count := &pl.X, &pl.Y
	if c.Horizontal {
		pl.NominalY(labels...)
		cat, count = &pl.Y, &pl.X
	} else {
		pl.NominalX(labels...)
	}
	cat.Min, cat.Max = -0.5, float64(n)-0.5
	cat.Width = vg.Points(0.5) // Nominal* hide the category axis line; it is the bars' base
	cat.Label.Text = c.CatLabel
	count.Min, count.Max = 0, float64(top)
	count.Tick.Marker = intTicks{step}
	count.Label.Text = c.CountLabel

	cv := vgsvg.New(w, h)
	m := 6 * vg.Millimeter / 2 // a margin, so that no label touches the edge, whatever font the browser has
	pl.Draw(draw.Crop(draw.New(cv), m, -m, m, -m))
	var b bytes.Buffer
	if _, err := cv.WriteTo(&b); err != nil {
		return "", err
	}
	svg := b.Bytes()
	i := bytes.Index(svg, []byte("<svg"))
	if i < 0 {
		return "", fmt.Errorf("chart %q: no <svg> element", c.Title)
	}
	return template.HTML(svg[i:]), nil
}

// gridLine is the grid's line style along the count axis, or no line.
func gridLine(on bool) draw.LineStyle {
	if !on {
		return draw.LineStyle{}
	}
	return draw.LineStyle{Color: plotColors[7], Width: vg.Points(0.25), Dashes: []vg.Length{vg.Points(1), vg.Points(2)}}
}
