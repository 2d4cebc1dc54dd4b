import { describe, expect, it } from 'vitest';
import { arabicSoundReadings, persianWordsOpeningWithAl } from './arabicTranscription.js';
import { latinSkeleton, soundReading } from './soundSkeleton.js';

const heard = (latin: string) => soundReading('arabic', latinSkeleton(latin, 'arabic'));

describe('arabicSoundReadings', () => {
  it('reads و as v and as a vowel, ز as z and as an English s said z', () => {
    // دیوید (dywyd) David, جونز (jwnz) Jones, جیمز (jymz) James.
    expect(arabicSoundReadings('dywyd')).toContain(heard('david'));
    expect(arabicSoundReadings('jwnz')).toContain(heard('jones'));
    expect(arabicSoundReadings('jymz')).toContain(heard('james'));
    // ظفر (zfr) is Zafar, سفير (sfyr) is not.
    expect(arabicSoundReadings('zfr')).toContain(heard('zafar'));
    expect(arabicSoundReadings('sfyr')).not.toContain(heard('zafar'));
  });

  it('reads تش (tsh) as the ch Arabic has no letter for', () => {
    // تشارلز Charles, ريتشارد Richard.
    expect(arabicSoundReadings('tsharlz')).toContain(heard('charles'));
    expect(arabicSoundReadings('rytshard')).toContain(heard('richard'));
  });

  it('reads a name in Persian letters whose word opens with ال with that El or Al its own', () => {
    expect(persianWordsOpeningWithAl('الیزابت وارن')).toEqual(['الیزابت', 'وارن']);
    // Arabic letters only: ال is the article (عبد الرحمن السيندي).
    expect(persianWordsOpeningWithAl('عبد الرحمن السيندي')).toBeUndefined();
    // Persian letters, no word opening with ال.
    expect(persianWordsOpeningWithAl('محمد باقری')).toBeUndefined();
  });

  it('leaves the Arabic compounds of a name in Persian letters to the transliteration', () => {
    // الدين and الله after a name, the name after عبد: the article of a compound Latin writes as one.
    expect(persianWordsOpeningWithAl('شمس الدین')).toBeUndefined();
    expect(persianWordsOpeningWithAl('سيد غیاث الدین آغا')).toBeUndefined();
    expect(persianWordsOpeningWithAl('نور الله کریمی')).toBeUndefined();
    expect(persianWordsOpeningWithAl('عبد الحی عظیم')).toBeUndefined();
    // Any other word opening with ال is heard with it, even beside a compound.
    expect(persianWordsOpeningWithAl('الهام شمس الدین')).toEqual(['الهام', 'شمس', 'الدین']);
  });

  it('hears p as b and v as f, as Arabic writes them, and keeps r from l and kh from h', () => {
    expect(arabicSoundReadings('fylyb')).toContain(heard('philip'));
    expect(arabicSoundReadings('dyfyd')).toContain(heard('david'));
    expect(arabicSoundReadings('sarmi')).not.toContain(heard('islam'));
    expect(arabicSoundReadings('khdyr')).not.toContain(heard('haydar'));
  });
});
