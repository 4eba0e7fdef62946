import { describe, expect, it } from 'vitest';
import { detectLanguage } from './language.js';

describe('detectLanguage', () => {
  it('accepts English prose', () => {
    const en =
      'The crawler fetched the page and it was judged to be relevant to the topic of the user. '.repeat(3);
    expect(detectLanguage(en).isEnglish).toBe(true);
  });
  it('rejects French and German prose', () => {
    const fr =
      "Le robot a téléchargé la page et elle est pertinente pour le sujet de l'utilisateur dans les données. ".repeat(
        3,
      );
    const de =
      'Die Seite ist nicht für den Benutzer und das Thema, aber sie ist mit einer Liste auf der Seite. '.repeat(
        3,
      );
    expect(detectLanguage(fr).isEnglish).toBe(false);
    expect(detectLanguage(de).isEnglish).toBe(false);
  });
  it('rejects text in a non-Latin script', () => {
    expect(
      detectLanguage('这是一个关于计算机硬件的网页，它包含很多中文内容和一些说明文字。'.repeat(5)).isEnglish,
    ).toBe(false);
  });
  it('accepts term lists without function words', () => {
    expect(detectLanguage('hockey puck league goalie rink skate '.repeat(10)).isEnglish).toBe(true);
  });
});
