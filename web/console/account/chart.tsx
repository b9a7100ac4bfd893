import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import { formatNumber, t } from '../../shared/i18n';

export type StatsType = 'monthly' | 'daily' | 'hourly' | 'minute';
export const STATS_TYPES: readonly StatsType[] = ['monthly', 'daily', 'hourly', 'minute'];

/** One Link/GetStats item for the first id asked (`clicks0`, `redirects0`). */
export interface StatsItem {
  param: string;
  clicks0: number;
  redirects0: number;
}

/**
 * A period's label (`2026-11`, `2026-11-24`, `2026-11-24 13:00`, `2026-11-24 13:05`) as seconds:
 * the account's wall-clock time read as if it were UTC, and drawn in UTC, so the axis shows the
 * times the API gave, in the account's zone, whatever the browser's zone.
 */
function secondsOf(param: string): number {
  const [date = '', time = '00:00'] = param.split(' ');
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number);
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  return Date.UTC(year, month - 1, day, hour, minute) / 1000;
}

const CLICKS = '#2f5bea';
const REDIRECTS = '#16a37a';

/**
 * Clicks and redirects per period as bars with uPlot. Its text alternative is the
 * figure's label with both totals, and a table of every period on request.
 */
export function StatsChart(props: { type: StatsType; items: readonly StatsItem[] }) {
  const holder = useRef<HTMLDivElement>(null);
  const [showTable, setShowTable] = useState(false);
  const clicks = props.items.reduce((sum, item) => sum + item.clicks0, 0);
  const redirects = props.items.reduce((sum, item) => sum + item.redirects0, 0);

  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const data: uPlot.AlignedData = [
      props.items.map((item) => secondsOf(item.param)),
      props.items.map((item) => item.clicks0),
      props.items.map((item) => item.redirects0),
    ];
    // Redirects are a subset of clicks: their narrower bar stands inside the click bar.
    const wide = uPlot.paths.bars?.({ size: [0.8, 44], gap: 1 });
    const narrow = uPlot.paths.bars?.({ size: [0.4, 22], gap: 1 });
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: 300,
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        legend: { show: false },
        cursor: { points: { size: 8 } },
        scales: { x: { time: true }, y: { range: (_self, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] } },
        axes: [
          { stroke: '#5b6678', grid: { show: false }, ticks: { stroke: '#dfe4ec' } },
          {
            stroke: '#5b6678',
            grid: { stroke: '#eef1f6' },
            ticks: { show: false },
            values: (_self, ticks) => ticks.map((tick) => (Number.isInteger(tick) ? formatNumber(tick) : '')),
          },
        ],
        series: [
          {},
          { label: t('clicks'), stroke: CLICKS, fill: 'rgba(47, 91, 234, 0.3)', width: 1, paths: wide, points: { show: false } },
          { label: t('redirects'), stroke: REDIRECTS, fill: REDIRECTS, width: 1, paths: narrow, points: { show: false } },
        ],
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, element.clientWidth), height: 300 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [props.items]);

  const summary = t('chartSummary', { period: t(props.type), clicks: formatNumber(clicks), redirects: formatNumber(redirects) });
  return (
    <>
      <div class="legend" aria-hidden="true">
        <span class="clicks">{t('clicks')}</span>
        <span class="redirects">{t('redirects')}</span>
      </div>
      <div class="chart" ref={holder} role="img" aria-label={summary} data-clicks={clicks} data-redirects={redirects} />
      <div>
        <button
          type="button"
          class="button small ghost"
          aria-expanded={showTable}
          aria-controls="stats-table"
          onClick={() => setShowTable(!showTable)}
        >
          {showTable ? t('hideTable') : t('showTable')}
        </button>
      </div>
      {showTable && (
        <div class="table-wrap" id="stats-table">
          <table class="table">
            <caption class="visually-hidden">{summary}</caption>
            <thead>
              <tr>
                <th scope="col">{t('period')}</th>
                <th scope="col" class="num">
                  {t('clicks')}
                </th>
                <th scope="col" class="num">
                  {t('redirects')}
                </th>
              </tr>
            </thead>
            <tbody>
              {props.items
                .filter((item) => item.clicks0 > 0 || item.redirects0 > 0)
                .map((item) => (
                  <tr key={item.param}>
                    <td class="time">{item.param}</td>
                    <td class="num">{formatNumber(item.clicks0)}</td>
                    <td class="num">{formatNumber(item.redirects0)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
