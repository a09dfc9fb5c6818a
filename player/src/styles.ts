/**
 * The player's style sheet, inside its shadow root. Every colour, the font and the sizes that a
 * site may want to change come from CSS custom properties (documented in the README), with defaults.
 */
export const STYLES = `
:host{display:block;font-family:var(--speech-font,inherit);line-height:1.5}
:host([hidden]){display:none}
.p{--a:var(--speech-accent,#0a66c2);--o:var(--speech-on-accent,#fff);--g:var(--speech-bg,#fff);--f:var(--speech-fg,#1f2328);--m:var(--speech-muted,#59636e);--b:var(--speech-border,#d0d7de);color:var(--f);background:var(--g);border:1px solid var(--b);border-radius:var(--speech-radius,12px);padding:.75em 1em}
@media (prefers-color-scheme:dark){.p{--a:var(--speech-accent,#4493f8);--o:var(--speech-on-accent,#0d1117);--g:var(--speech-bg,#161b22);--f:var(--speech-fg,#e6edf3);--m:var(--speech-muted,#a2aab4);--b:var(--speech-border,#3d444d);color-scheme:dark}}
.s,.t{margin:0 0 .5em}
.s:empty{margin:0}
.t{font-weight:600}
.c,.x,.y{display:flex;align-items:center}
.c{flex-wrap:wrap;gap:.5em 1em}
.x{flex-wrap:wrap;gap:.25em;flex:1 1 18em;min-width:0}
.y{gap:.75em}
button,select{font:inherit;color:inherit;cursor:pointer}
button{display:inline-flex;align-items:center;justify-content:center;gap:.1em;min-width:2.5em;min-height:2.5em;padding:0 .4em;border:1px solid transparent;border-radius:2em;background:none}
button:hover{background:color-mix(in srgb,var(--a) 12%,transparent)}
.pl,.pl:hover{background:var(--a);color:var(--o)}
input{flex:1 1 3em;min-width:3em;margin:0 .25em;accent-color:var(--a)}
.tm{font-variant-numeric:tabular-nums;white-space:nowrap;font-size:.875em;color:var(--m)}
select{border:1px solid var(--b);border-radius:.4em;background:var(--g);padding:.2em .3em}
a{color:var(--a)}
:focus-visible{outline:2px solid var(--a);outline-offset:2px}
ol{list-style:none;margin:.75em 0 0;padding:0}
nav ol{display:flex;flex-wrap:wrap;gap:.25em}
nav button{min-height:2em;border-color:var(--b);gap:.5em;padding:0 .75em}
.tr{position:relative;max-height:var(--speech-transcript-height,12em);overflow:auto;border-top:1px solid var(--b);padding-top:.25em}
.tr button{display:block;width:100%;min-height:0;text-align:start;border-radius:.4em;padding:.25em .5em}
[aria-current]{background:var(--speech-highlight,color-mix(in srgb,var(--a) 18%,transparent))}
nav [aria-current]{border-color:var(--a)}
svg{width:1.25em;height:1.25em;fill:currentColor}
.ab{display:flex;flex-wrap:wrap;align-items:center;gap:.25em .75em;margin:0 0 .5em}
.ai{position:relative;font-size:.75em;font-weight:600;padding:.1em .6em;border:1px solid var(--b);border-radius:1em;color:var(--m)}
.tip{display:none;position:absolute;inset-inline-start:0;top:100%;z-index:1;margin-top:.3em;padding:.2em .5em;white-space:nowrap;font-weight:400;color:var(--g);background:var(--f);border-radius:.3em}
.ai:hover .tip,.ai:focus .tip{display:block}
.sk{position:relative;display:flex;flex:1 1 3em;min-width:3em}
.mks{position:absolute;inset:auto .25em 0;height:3px;pointer-events:none}
.mk{position:absolute;top:0;bottom:0;background:var(--speech-changed,#d4a72c);border-radius:2px}
`;
