// Memory belongs to a named session. Runs without `session` start fresh, so an agent shared by
// several users never shows one user's conversation to another; runs in the same named session
// remember what was said before.
import { createAgent } from '@tiny-claw/core';
import { ScriptedProvider } from '@tiny-claw/core/testing';

const provider = new ScriptedProvider({
  turns: [
    { text: 'Noted: the release is on Friday.' },
    { text: 'I do not know.' },
    { text: 'Noted: the release is on Friday.' },
    { text: 'Friday.' },
  ],
});
const agent = createAgent({ provider });

// Two runs without a session: the second one has never heard of the first.
await agent.run('The release is on Friday.');
await agent.run('When is the release?');
// Two runs in the session 'alice': the second one is told what happened in the first.
await agent.run('The release is on Friday.', { session: 'alice' });
await agent.run('When is the release?', { session: 'alice' });

const remembers = (index: number) =>
  provider.requests[index]?.messages
    .slice(0, -1) // everything sent before this run's own prompt
    .some((message) => message.content.includes('release is on Friday')) ?? false;
console.log(`an unnamed run remembers the one before: ${remembers(1)}`);
console.log(`alice's second run remembers her first: ${remembers(3)}`);
