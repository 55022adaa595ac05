import { describe, expect, it } from 'vitest';
import type { TraceSpan, TraceTree } from '../trace-schema.js';
import { sampleTrace } from './__fixtures__/sample-trace.js';
import { renderTraceHtml } from './render-html.js';
import { renderTraceTree } from './render-tree.js';
import { spanCostUsd, walkSpans } from './span-facts.js';

// gpt-4.1 at $2 input and $8 output per 1M tokens, as the OpenAI provider prices it.
const price = (span: TraceSpan) =>
  (Number(span.attributes.input_tokens) * 2 + Number(span.attributes.output_tokens) * 8) / 1e6;

function llmCalls(tree: TraceTree): TraceSpan[] {
  return [...walkSpans(tree.root)].filter((span) => span.kind === 'llm.call');
}

/** The sample trace with every model call priced: 0.000328 + 0.00012 (subagent) + 0.00056 + 0.00076. */
function pricedTrace(): TraceTree {
  const tree = sampleTrace();
  for (const call of llmCalls(tree)) call.attributes.cost_usd = price(call);
  return tree;
}

describe('cost in the terminal tree', () => {
  it("puts each model call's price beside its tokens", () => {
    const text = renderTraceTree(pricedTrace());
    expect(text).toContain(
      '├─ llm.call llm.openai  ok  480ms  gpt-4.1  tokens 120 in / 11 out  cost≈$0.0003\n',
    );
    expect(text).toContain(
      'llm.call llm.openai  ok  460ms  gpt-4.1  tokens 260 in / 30 out  cost≈$0.0008\n',
    );
  });

  it('puts the total of every model call, the subagents’ included, on the run line', () => {
    const tree = pricedTrace();
    expect(spanCostUsd(tree.root)).toBeCloseTo(0.001768, 12);
    const lines = renderTraceTree(tree).split('\n');
    expect(lines[1]).toBe('agent.run tiny_claw.run  ok  2.40s  cost≈$0.0018');
    expect(lines).toContain('│     └─ subagent.run explorer  ok  260ms  cost≈$0.0001');
  });

  it('says cost=unknown for a call that reported tokens without a price, and for the run it is in', () => {
    const tree = pricedTrace();
    const last = llmCalls(tree).at(-1);
    if (!last) throw new Error('fixture changed');
    delete last.attributes.cost_usd;
    const lines = renderTraceTree(tree).split('\n');
    // A total without that call would read lower than the bill.
    expect(lines[1]).toBe('agent.run tiny_claw.run  ok  2.40s  cost=unknown');
    expect(lines).toContain(
      '   └─ llm.call llm.openai  ok  460ms  gpt-4.1  tokens 260 in / 30 out  cost=unknown',
    );
    expect(lines).toContain('│     └─ subagent.run explorer  ok  260ms  cost≈$0.0001');
  });

  it('prices nothing on calls that reported no usage, and calls the run cost=unknown', () => {
    const tree = sampleTrace();
    for (const call of llmCalls(tree)) call.attributes = { provider: 'echo', model: 'echo' };
    const text = renderTraceTree(tree);
    expect(text).toContain('├─ llm.call llm.openai  ok  480ms  echo\n');
    expect(text.split('\n')[1]).toBe('agent.run tiny_claw.run  ok  2.40s  cost=unknown');
  });

  it('shows a free model as $0.0000, not unknown', () => {
    const tree = sampleTrace();
    for (const call of llmCalls(tree)) call.attributes.cost_usd = 0;
    expect(renderTraceTree(tree).split('\n')[1]).toBe(
      'agent.run tiny_claw.run  ok  2.40s  cost≈$0.0000',
    );
  });

  it('ignores a cost_usd that is no cost (negative or not a number)', () => {
    const tree = pricedTrace();
    const first = llmCalls(tree)[0];
    if (!first) throw new Error('fixture changed');
    first.attributes.cost_usd = -1;
    expect(spanCostUsd(first)).toBeUndefined();
    first.attributes.cost_usd = 'a lot';
    expect(spanCostUsd(tree.root)).toBeUndefined();
  });
});

describe('cost in the HTML page', () => {
  it('shows the same labels beside the run and each priced model call', () => {
    const tree = pricedTrace();
    const last = llmCalls(tree).at(-1);
    if (!last) throw new Error('fixture changed');
    delete last.attributes.cost_usd;
    const html = renderTraceHtml(tree);
    expect(html).toContain(
      '<span class="name">tiny_claw.run</span><span class="extra">cost=unknown</span>',
    );
    expect(html).toContain(
      '<span class="extra">gpt-4.1 · tokens 120 in / 11 out · cost≈$0.0003</span>',
    );
    expect(html).toContain(
      '<span class="extra">gpt-4.1 · tokens 260 in / 30 out · cost=unknown</span>',
    );
    expect(html).toContain(
      '<span class="name">explorer</span><span class="extra">cost≈$0.0001</span>',
    );
  });
});
