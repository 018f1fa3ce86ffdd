-- Badges with levels 1..max_level: level n is reached at thresholds[n] of the badge's metric and
-- gives xp_rewards[n] experience. Labels here are the default-locale (en-US) ones; the message
-- catalogs translate them by slug.
CREATE TABLE badges (
  id uuid PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  label text NOT NULL,
  icon text NOT NULL,
  metric text NOT NULL,
  thresholds integer[] NOT NULL,
  xp_rewards integer[] NOT NULL,
  position integer NOT NULL,
  active boolean NOT NULL DEFAULT true,
  CONSTRAINT badges_levels CHECK (cardinality(thresholds) >= 1 AND cardinality(thresholds) = cardinality(xp_rewards))
);

CREATE TABLE user_badges (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  badge_id uuid NOT NULL REFERENCES badges (id) ON DELETE CASCADE,
  level integer NOT NULL CHECK (level >= 1),
  earned_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, badge_id)
);

-- Titles by bucket of 5 levels: rank_index r covers levels 5r..5r+4. A user's title is the highest
-- active rank not above their bucket.
CREATE TABLE titles (
  slug text PRIMARY KEY,
  rank_index integer NOT NULL UNIQUE CHECK (rank_index >= 0),
  label text NOT NULL,
  active boolean NOT NULL DEFAULT true
);

INSERT INTO badges (id, slug, label, icon, metric, thresholds, xp_rewards, position) VALUES
  ('6c1f3a52-8a41-4e0a-9d3e-2f7f1b6a0001', 'explorer', 'Explorer', 'compass', 'countriesVisited',
   '{1,3,5,10,20,35,50}', '{20,40,60,100,150,250,400}', 1),
  ('6c1f3a52-8a41-4e0a-9d3e-2f7f1b6a0002', 'photographer', 'Photographer', 'camera', 'photosPublished',
   '{1,10,25,50,100,250,500,1000}', '{10,30,50,80,120,200,300,500}', 2),
  ('6c1f3a52-8a41-4e0a-9d3e-2f7f1b6a0003', 'ambassador', 'Ambassador', 'megaphone', 'followers',
   '{1,10,50,100,250,500,1000}', '{10,40,80,120,200,300,500}', 3),
  ('6c1f3a52-8a41-4e0a-9d3e-2f7f1b6a0004', 'crowd-pleaser', 'Crowd pleaser', 'heart', 'likesReceived',
   '{10,50,100,500,1000,5000}', '{20,50,80,150,250,500}', 4),
  ('6c1f3a52-8a41-4e0a-9d3e-2f7f1b6a0005', 'storyteller', 'Storyteller', 'speech-bubble', 'commentsWritten',
   '{1,10,50,100,500}', '{10,30,60,100,200}', 5),
  ('6c1f3a52-8a41-4e0a-9d3e-2f7f1b6a0006', 'curator', 'Curator', 'bookmark', 'bookmarksSaved',
   '{1,25,100,500}', '{10,30,60,120}', 6);

INSERT INTO titles (slug, rank_index, label, active) VALUES
  ('newcomer', 0, 'Newcomer', true),
  ('wanderer', 1, 'Wanderer', true),
  ('pathfinder', 2, 'Pathfinder', true),
  ('voyager', 3, 'Voyager', true),
  ('globetrotter', 4, 'Globetrotter', true),
  ('trailblazer', 5, 'Trailblazer', true),
  ('legend', 6, 'Legend', true),
  ('mythic-nomad', 7, 'Mythic nomad', false);
