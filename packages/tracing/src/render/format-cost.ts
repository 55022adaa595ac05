/**
 * A cost in US dollars as people read it: four decimals under a dollar (`$0.0123`), cents from a
 * dollar up (`$1.50`, `$123.46`), and two significant digits below a hundredth of a cent, so a
 * tiny cost never reads as nothing (`$0.000012`). Zero is `$0.0000`.
 *
 * @example
 * formatCost(0.0123); // '$0.0123'
 * formatCost(0.00001234); // '$0.000012'
 * formatCost(123.456); // '$123.46'
 *
 * @throws RangeError for a negative or non-finite amount: that is no cost to print.
 */
export function formatCost(usd: number): string {
  if (!Number.isFinite(usd) || usd < 0) throw new RangeError(`not a cost in USD: ${usd}`);
  // What rounds to a dollar at four decimals is shown as one: `$1.00`, not `$1.0000`.
  if (usd >= 0.99995) return `$${usd.toFixed(2)}`;
  if (usd === 0 || usd >= 0.0001) return `$${usd.toFixed(4)}`;
  // toFixed, not toPrecision: the latter switches to exponent notation below 1e-6.
  const decimals = Math.min(100, 1 - Math.floor(Math.log10(usd)));
  return `$${usd.toFixed(decimals)}`;
}

/**
 * The cost as the CLI's summary line and `trace show` print it: `cost≈$0.0123` when it is known,
 * `cost=unknown` when it is not (no price for the model, or no call reported tokens). A negative or
 * non-finite figure is not a cost either.
 *
 * @example
 * costLabel(0.0028); // 'cost≈$0.0028'
 * costLabel(undefined); // 'cost=unknown'
 */
export function costLabel(usd: number | undefined): string {
  return usd !== undefined && Number.isFinite(usd) && usd >= 0
    ? `cost≈${formatCost(usd)}`
    : 'cost=unknown';
}
