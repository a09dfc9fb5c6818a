import * as React from 'react';
import { Box, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { labelledDays, formatDay } from '../utils/usageFormat';
import { seriesColour, valueScale, type DayStack } from '../utils/usageChart';

interface Props {
  stacks: DayStack[];
  /** The legend's series, in stacking order, with their names in the admin's language. */
  series: Array<{ key: string; name: string }>;
  dir: 'ltr' | 'rtl';
  /** The image's title, its accessible name: `Credits per day`, `Plays per day`. */
  title: string;
  /** The image's summary from the period's figures, already in the admin's language. */
  describe: (figures: { days: string; total: string; peak: string }) => string;
  /** A day's figure in its tooltip: `1,234 credits`, `12 plays`. */
  formatValue: (value: number) => string;
  /** Test ids: `<prefix>-chart` and `<prefix>-tooltip`. */
  testIdPrefix: string;
}

const HEIGHT = 260;
const MARGIN = { top: 12, bottom: 28, axis: 56, end: 12 };

/** Follows the width of its box, so the bars fill the card at any window size. */
function useWidth(fallback: number) {
  const ref = React.useRef<HTMLDivElement>(null);
  const [width, setWidth] = React.useState(fallback);
  React.useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(320, Math.floor(entry.contentRect.width))));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

/**
 * A figure per day (credits on the usage page, plays on the listening page) as stacked bars: an SVG of its own (no chart library: a few hundred lines
 * would be a hundred KB). For assistive technology the SVG is one image with a title and a
 * summary; the data table beside it (UsageTable, the listening page's days) holds every figure. Sighted keyboard users
 * reach the chart with Tab and move from day to day with the arrow keys (Home, End), the
 * day's figures shown as a tooltip, as the mouse shows them. Right to left, time runs from
 * the right, as Arabic reads.
 */
export const DayChart = ({ stacks, series, dir, title, describe, formatValue, testIdPrefix }: Props) => {
  const { formatNumber, locale } = useIntl();
  const { ref, width } = useWidth(800);
  const [active, setActive] = React.useState<number | null>(null);
  const titleId = React.useId();
  const descriptionId = React.useId();

  const scale = valueScale(Math.max(0, ...stacks.map((stack) => stack.top)));
  const plotWidth = width - MARGIN.axis - MARGIN.end;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const slot = plotWidth / Math.max(1, stacks.length);
  const barWidth = Math.max(2, slot * 0.7);
  const rtl = dir === 'rtl';
  // The value axis stands at the start of the reading direction: left in English, right in Arabic.
  const plotLeft = rtl ? MARGIN.end : MARGIN.axis;
  const axisX = rtl ? plotLeft + plotWidth : plotLeft;
  const slotStart = (index: number) => (rtl ? plotLeft + plotWidth - (index + 1) * slot : plotLeft + index * slot);
  const y = (value: number) => MARGIN.top + plotHeight - (value / scale.max) * plotHeight;
  const labelled = labelledDays(stacks.length);
  const total = stacks.reduce((sum, stack) => sum + stack.value, 0);
  const peak = stacks.reduce<DayStack | null>((best, stack) => (!best || stack.value > best.value ? stack : best), null);

  const onKeyDown = (event: React.KeyboardEvent) => {
    const last = stacks.length - 1;
    // Arrows follow the screen: right is later in English, earlier in Arabic.
    const forward = rtl ? 'ArrowLeft' : 'ArrowRight';
    const backward = rtl ? 'ArrowRight' : 'ArrowLeft';
    const next =
      event.key === forward
        ? Math.min(last, (active ?? -1) + 1)
        : event.key === backward
          ? Math.max(0, (active ?? last + 1) - 1)
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : event.key === 'Escape'
                ? null
                : undefined;
    if (next === undefined) return;
    event.preventDefault();
    setActive(next);
  };

  const shown = active === null ? null : stacks[active];
  const tooltipLeft = active === null ? 0 : slotStart(active) + slot / 2;

  return (
    <Box position="relative" ref={ref} data-testid={`${testIdPrefix}-chart`}>
      <svg
        width={width}
        height={HEIGHT}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${titleId} ${descriptionId}`}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onBlur={() => setActive(null)}
        onMouseLeave={() => setActive(null)}
        style={{ display: 'block', outlineOffset: 2 }}
      >
        <title id={titleId}>{title}</title>
        <desc id={descriptionId}>
          {describe({
            days: formatNumber(stacks.length),
            total: formatNumber(total),
            peak: peak ? formatDay(peak.day, locale, { day: 'numeric', month: 'long' }) : '-',
          })}
        </desc>
        {scale.ticks.map((tick) => (
          <g key={tick} aria-hidden>
            <line x1={plotLeft} x2={plotLeft + plotWidth} y1={y(tick)} y2={y(tick)} stroke="#eaeaef" />
            <text
              x={rtl ? axisX + 6 : axisX - 6}
              y={y(tick)}
              dominantBaseline="middle"
              textAnchor={rtl ? 'start' : 'end'}
              fontSize={11}
              fill="#666687"
            >
              {formatNumber(tick, { notation: 'compact' })}
            </text>
          </g>
        ))}
        {stacks.map((stack, index) => {
          const x = slotStart(index) + (slot - barWidth) / 2;
          return (
            <g key={stack.day} onMouseEnter={() => setActive(index)} aria-hidden>
              {/* The whole column answers the mouse, also over a day with a small figure. */}
              <rect
                x={slotStart(index)}
                y={MARGIN.top}
                width={slot}
                height={plotHeight}
                fill={active === index ? '#f0f0ff' : 'transparent'}
              />
              {stack.segments.map((segment, position) =>
                segment.to > segment.from ? (
                  <rect
                    key={segment.series}
                    x={x}
                    y={y(segment.to)}
                    width={barWidth}
                    height={Math.max(1, y(segment.from) - y(segment.to))}
                    fill={seriesColour(segment.series, position)}
                  />
                ) : null
              )}
              {labelled.has(index) ? (
                <text x={slotStart(index) + slot / 2} y={HEIGHT - 8} textAnchor="middle" fontSize={11} fill="#666687">
                  {formatDay(stack.day, locale)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      {shown ? (
        <Box
          position="absolute"
          top={0}
          background="neutral900"
          padding={2}
          hasRadius
          data-testid={`${testIdPrefix}-tooltip`}
          style={{
            left: tooltipLeft,
            transform: `translateX(${tooltipLeft > width / 2 ? '-105%' : '5%'})`,
            pointerEvents: 'none',
            whiteSpace: 'nowrap',
            zIndex: 1,
          }}
        >
          <Typography variant="pi" fontWeight="bold" textColor="neutral0" tag="p">
            {formatDay(shown.day, locale, { weekday: 'short', day: 'numeric', month: 'long' })}: {formatValue(shown.value)}
          </Typography>
          {/* One series only: its figure is the day's. */}
          {shown.segments
            .filter((segment) => series.length > 1 && segment.value !== 0)
            .map((segment) => (
              <Typography key={segment.series} variant="pi" textColor="neutral0" tag="p">
                {series.find((item) => item.key === segment.series)?.name ?? segment.series}: {formatNumber(segment.value)}
              </Typography>
            ))}
        </Box>
      ) : null}
    </Box>
  );
};
