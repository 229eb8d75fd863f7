import { noChange, nothing } from 'lit';
import { Directive, directive, PartType, type ElementPart, type PartInfo } from 'lit/directive.js';

/**
 * Sets one CSS custom property on the element through the CSSOM. Lit's styleMap writes a
 * `style` attribute on first render, which a strict CSP (no 'unsafe-inline' styles) blocks.
 */
class CssPropertyDirective extends Directive {
  constructor(partInfo: PartInfo) {
    super(partInfo);
    if (partInfo.type !== PartType.ELEMENT)
      throw new Error('cssProperty() belongs in an element position: <div ${cssProperty(…)}>');
  }

  render(_name: string, _value: string) {
    return nothing;
  }

  override update(part: ElementPart, [name, value]: [string, string]) {
    (part.element as HTMLElement).style.setProperty(name, value);
    return noChange;
  }
}

export const cssProperty = directive(CssPropertyDirective);
