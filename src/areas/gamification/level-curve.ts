/**
 * Experience and levels. Reaching level L takes 50 * L * (L + 1) experience in total: 100 for
 * level 1, 300 for 2, 600 for 3, 1,000 for 4, 5,500 for 10, 21,000 for 20 (each level costs 100
 * more than the one before). Level 0 is the start. Titles come in buckets of 5 levels.
 */
export const maxLevel = 200;
export const titleBucketSize = 5;

export const experienceForLevel = (level: number): number => 50 * level * (level + 1);

export function levelForExperience(experience: number): number {
  // Inverse of 50 L (L + 1) <= xp, then corrected for floating point at the edges.
  let level = Math.floor((-1 + Math.sqrt(1 + experience / 12.5)) / 2);
  while (level < maxLevel && experienceForLevel(level + 1) <= experience) level++;
  while (level > 0 && experienceForLevel(level) > experience) level--;
  return Math.min(Math.max(level, 0), maxLevel);
}

export const titleBucketOf = (level: number): number => Math.floor(level / titleBucketSize);
