import { describe, expect, it } from 'vitest';
import { isTranscribedName, transcribedWords, transcriptionSkeletons } from './chineseTranscription.js';
import { latinSkeleton as heardAs } from './soundSkeleton.js';

const heard = (name: string) => transcribedWords(name).map((word) => transcriptionSkeletons(word)[0]);
const allHeard = (name: string) => transcribedWords(name).map(transcriptionSkeletons);
const latinSkeleton = (latin: string) => heardAs(latin, 'chinese');

describe('chineseTranscription', () => {
  it('reads only names with a middle dot between Han words as transcriptions', () => {
    expect(isTranscribedName('鲍里斯·约翰逊')).toBe(true);
    expect(isTranscribedName('乔治・奥斯本')).toBe(true);
    expect(isTranscribedName('习近平')).toBe(false);
    expect(isTranscribedName('テッド・クルーズ')).toBe(false);
    expect(isTranscribedName('Boris·Johnson')).toBe(false);
  });

  it('gives a transcription and its Latin spelling one skeleton', () => {
    expect(heard('鲍里斯·约翰逊')).toEqual([latinSkeleton('boris'), 'HNSN']);
    expect(heard('伊丽莎白·特拉斯')[1]).toBe(latinSkeleton('truss'));
    expect(heard('道格拉斯·卡斯維爾')).toEqual([latinSkeleton('douglas'), latinSkeleton('carswell')]);
    expect(heard('马修·汉考克')).toEqual([latinSkeleton('matthew'), latinSkeleton('hancock')]);
    expect(heard('湯姆·沃特森')[1]).toBe(latinSkeleton('watson'));
    expect(heard('丹·科茨')).toEqual([latinSkeleton('dan'), latinSkeleton('coats')]);
    expect(heard('约翰·霍文')[0]).toBe(latinSkeleton('john'));
  });

  it('reads 加 as ga, a nasal before m as that m, and hears the ch of Chris and Michael as k', () => {
    expect(heard('加里·彼得斯')).toEqual([latinSkeleton('gary'), latinSkeleton('peters')]);
    expect(heard('科里·加德納')[1]).toBe(latinSkeleton('gardner'));
    expect(heard('湯姆·沃特森')[0]).toBe(latinSkeleton('tom'));
    expect(heard('詹姆斯·戈登')[0]).toBe(latinSkeleton('james'));
    expect(heard('克里斯·墨菲')[0]).toBe(latinSkeleton('chris'));
    expect(heard('迈克尔·法伦')[0]).toBe(latinSkeleton('michael'));
  });

  it('reads j and q before i both as themselves and as the k or g the tables write with them', () => {
    expect(allHeard('安格斯·金')[1]).toEqual(['JN', latinSkeleton('king')]);
    expect(allHeard('基思·埃利森')[0]).toContain(latinSkeleton('keith'));
    expect(allHeard('吉米·卡特')[0]).toContain(latinSkeleton('jimmy'));
    // 琪琪琪: two palatal syllables read both ways, the third one way only (at most four readings).
    expect(allHeard('琪琪琪·卡特')[0]).toHaveLength(4);
    expect(allHeard('乔治·华盛顿')[0]).toEqual([latinSkeleton('george')]);
  });

  it('reads hua, huai and hui as the w they write, and David, Richard, Edward, Michael by convention', () => {
    expect(heard('乔治·华盛顿')[1]).toBe(latinSkeleton('washington'));
    expect(heard('伊莉莎白·華倫')[1]).toBe(latinSkeleton('warren'));
    expect(heard('榮·懷登')[1]).toBe(latinSkeleton('wyden'));
    // 霍 huo is the h of Howard.
    expect(heard('霍华德·迪恩')[0]).toBe(latinSkeleton('howard'));
    expect(heard('大卫·卡梅伦')[0]).toBe(latinSkeleton('david'));
    expect(heard('戴維·蒙代爾')[0]).toBe(latinSkeleton('david'));
    expect(heard('理查·谢尔比')[0]).toBe(latinSkeleton('richard'));
    expect(heard('爱德华·马基')[0]).toBe(latinSkeleton('edward'));
    expect(heard('愛德華·甘迺迪')[0]).toBe(latinSkeleton('edward'));
    expect(heard('麥可·法隆')[0]).toBe(latinSkeleton('michael'));
  });
});
