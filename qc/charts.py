"""Chart geometry for server-rendered SVG (templates/qc/partials/_bar_chart.html, _time_chart.html).

Pure functions: numbers in, positions out, so a test can check a bar's exact length. No JavaScript and
no inline styles (the CSP refuses them): colours come from CSS classes (chart-s0.., chart-high, ...) in
gotong.css, sizes from SVG presentation attributes. Every chart keeps its numbers for the table shown
under it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

# Horizontal bar charts: label column, bar area, value column, one row per bar (SVG user units).
LABEL_W = 170
BAR_W = 360
VALUE_W = 150
ROW_H = 24
BAR_H = 16
# Colour classes for series (error types); more series than this reuse them in turn.
SERIES = 8
# Time charts.
TIME_W = 640
TIME_H = 160
TIME_PAD = 24  # room for the axis labels below the plot
COLUMN_W = 48
MAX_DAYS = 90  # a longer project shows its last 90 days (the cumulative line starts from what came before)


@dataclass(frozen=True)
class Segment:
    value: float
    x: float
    width: float
    css: str
    label: str = ""


@dataclass(frozen=True)
class BarRow:
    label: str
    value: float | None  # None: nothing to draw (e.g. an undefined agreement figure)
    text: str  # what is written after the bar
    segments: list[Segment]
    y: float
    end: float  # x where the value text starts

    @property
    def text_y(self) -> float:
        # Baseline of the row's label and value: near the bottom of the bar.
        return round(self.y + BAR_H - 4, 1)


@dataclass(frozen=True)
class BarChart:
    rows: list[BarRow]
    series: list[tuple[str, str]]  # (label, css) for a legend; empty for one-series charts
    width: int
    height: int
    label_w: int = LABEL_W
    bar_h: int = BAR_H


def _scaled(value: float, top: float) -> float:
    if top <= 0 or value <= 0:
        return 0.0
    return round(BAR_W * min(value, top) / top, 1)


def _row_y(n: int) -> float:
    return n * ROW_H + (ROW_H - BAR_H) / 2


def bar_chart(
    rows: Sequence[tuple[str, float | None, str]], *, top: float | None = None, css: str = "chart-s0"
) -> BarChart:
    """One bar per (label, value, text); bars scale to `top` (default: the largest value). A value of
    None or below zero draws no bar; `text` says what the value is."""
    values = [v for _, v, _ in rows if v is not None]
    top = top if top is not None else max(values, default=0)
    built = []
    for n, (label, value, text) in enumerate(rows):
        width = _scaled(value, top) if value is not None else 0.0
        segments = [Segment(value=value, x=LABEL_W, width=width, css=css)] if width else []
        built.append(
            BarRow(label=label, value=value, text=text, segments=segments, y=_row_y(n), end=LABEL_W + width + 6)
        )
    return BarChart(rows=built, series=[], width=LABEL_W + BAR_W + VALUE_W, height=max(1, len(rows)) * ROW_H)


def agreement_chart(rows: Sequence[tuple[str, float | None, str, str]]) -> BarChart:
    """Agreement per group as bars on a 0..1 scale, each coloured by its reading's band:
    (label, alpha, short reading, band)."""
    chart = bar_chart([(label, alpha, text) for label, alpha, text, _ in rows], top=1.0)
    recoloured = [
        BarRow(
            label=row.label,
            value=row.value,
            text=row.text,
            # Three decimals, as the tables show them (also the bar's tooltip).
            segments=[
                Segment(value=round(s.value, 3), x=s.x, width=s.width, css=f"chart-{band}") for s in row.segments
            ],
            y=row.y,
            end=row.end,
        )
        for row, (_, _, _, band) in zip(chart.rows, rows, strict=True)
    ]
    return BarChart(rows=recoloured, series=[], width=chart.width, height=chart.height)


def stacked_chart(labels: Sequence[str], series: Sequence[str], counts: Sequence[Sequence[int]]) -> BarChart:
    """One bar per label made of one segment per series (counts[row][series]); bars scale to the
    largest row total. Empty segments are left out."""
    totals = [sum(row) for row in counts]
    top = max(totals, default=0)
    built = []
    for n, (label, row, total) in enumerate(zip(labels, counts, totals, strict=True)):
        x = float(LABEL_W)
        segments = []
        for s, value in enumerate(row):
            if value <= 0:
                continue
            width = _scaled(value, top)
            segments.append(
                Segment(value=value, x=round(x, 1), width=width, css=f"chart-s{s % SERIES}", label=series[s])
            )
            x += width
        built.append(
            BarRow(label=label, value=total, text=str(total), segments=segments, y=_row_y(n), end=round(x, 1) + 6)
        )
    legend = [(name, f"chart-s{s % SERIES}") for s, name in enumerate(series)]
    return BarChart(rows=built, series=legend, width=LABEL_W + BAR_W + VALUE_W, height=max(1, len(labels)) * ROW_H)


@dataclass(frozen=True)
class Day:
    day: date
    n: int
    cumulative: int
    x: float
    width: float
    y: float  # top of the day's column
    height: float


@dataclass(frozen=True)
class TimeChart:
    days: list[Day]
    line: str  # polyline points of the cumulative count
    top: int  # the largest day
    total: int
    width: int = TIME_W
    height: int = TIME_H + TIME_PAD
    plot_h: int = TIME_H
    earlier: int = 0  # counted before the first day shown
    first: str = ""
    last: str = ""
    labels: list[tuple[float, str]] = field(default_factory=list)

    @property
    def axis_y(self) -> int:
        return TIME_H + TIME_PAD - 6


def time_chart(per_day: dict[date, int]) -> TimeChart:
    """Columns of the count per day (every day from the first to the last, gaps as zero) and a line of
    the running total scaled to the chart's height. Columns scale to the busiest day."""
    if not per_day:
        return TimeChart(days=[], line="", top=0, total=0)
    first, last = min(per_day), max(per_day)
    span = [date.fromordinal(o) for o in range(first.toordinal(), last.toordinal() + 1)]
    shown = span[-MAX_DAYS:]
    earlier = sum(n for d, n in per_day.items() if d < shown[0])
    total = sum(per_day.values())
    top = max(per_day.get(d, 0) for d in shown)
    step = TIME_W / len(shown)
    days, points, running = [], [], earlier
    for i, d in enumerate(shown):
        n = per_day.get(d, 0)
        running += n
        height = round(TIME_H * n / top, 1) if top else 0.0
        # A column is at most COLUMN_W wide (a few days would otherwise draw slabs), centred in its day.
        width = min(step * 0.8, COLUMN_W)
        x = round(i * step + (step - width) / 2, 1)
        days.append(
            Day(
                day=d,
                n=n,
                cumulative=running,
                x=x,
                width=round(width, 1),
                y=round(TIME_H - height, 1),
                height=height,
            )
        )
        points.append(f"{round((i + 0.5) * step, 1)},{round(TIME_H - TIME_H * running / total, 1)}")
    labels = [(0.0, shown[0].isoformat())]
    if len(shown) > 1:
        labels.append((float(TIME_W), shown[-1].isoformat()))
    return TimeChart(
        days=days,
        line=" ".join(points),
        top=top,
        total=total,
        earlier=earlier,
        first=shown[0].isoformat(),
        last=shown[-1].isoformat(),
        labels=labels,
    )


# Reliability diagrams: a square plot of share correct against the judge's probability.
RELIABILITY_SIDE = 240
RELIABILITY_PAD = 28  # room for the axis labels left of and below the plot


@dataclass(frozen=True)
class ReliabilityBar:
    low: float
    high: float
    count: int
    confidence: float | None
    accuracy: float | None
    x: float
    width: float
    y: float  # top of the bar (share correct)
    height: float
    dot_x: float  # the bin's mean probability, on the share's height
    dot_y: float


@dataclass(frozen=True)
class ReliabilityChart:
    bars: list[ReliabilityBar]  # the bins that hold decisions
    diagonal: tuple[float, float, float, float]  # x1, y1, x2, y2 of perfect calibration
    ticks: list[tuple[float, float, str]]  # x, y, label of the axes' 0, 0.5 and 1
    side: int = RELIABILITY_SIDE
    pad: int = RELIABILITY_PAD
    width: int = RELIABILITY_SIDE + RELIABILITY_PAD + 8
    height: int = RELIABILITY_SIDE + RELIABILITY_PAD + 8


def reliability_chart(bins: Sequence[tuple[float, float, int, float | None, float | None]]) -> ReliabilityChart:
    """Bins as (low, high, count, mean probability, share correct), probabilities on 0..1: one bar per
    non-empty bin as high as its share correct, a dot at its mean probability, and the diagonal a
    calibrated judge follows."""
    left, top, side = RELIABILITY_PAD, 8, RELIABILITY_SIDE

    def x(value: float) -> float:
        return round(left + side * value, 1)

    def y(value: float) -> float:
        return round(top + side * (1 - value), 1)

    bars = []
    for low, high, count, confidence, accuracy in bins:
        if not count or confidence is None or accuracy is None:
            continue
        bars.append(
            ReliabilityBar(
                low=low,
                high=high,
                count=count,
                confidence=confidence,
                accuracy=accuracy,
                x=round(x(low) + 1, 1),
                width=round(x(high) - x(low) - 2, 1),
                y=y(accuracy),
                height=round(side * accuracy, 1),
                dot_x=x(confidence),
                dot_y=y(accuracy),
            )
        )
    ticks = [(x(v), float(top + side + 16), str(v)) for v in (0, 0.5, 1)]
    ticks += [(float(left - 4), round(y(v) + 4, 1), str(v)) for v in (0, 0.5, 1)]
    return ReliabilityChart(bars=bars, diagonal=(x(0), y(0), x(1), y(1)), ticks=ticks)
