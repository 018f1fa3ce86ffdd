-- Topics: a seeded catalogue of travel topics, each standing for a few media hashtags (lowercase,
-- without '#', as media store them). Labels live in the topics area's message catalogs, by slug.
CREATE TABLE topics (
  id uuid PRIMARY KEY,
  slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  icon text NOT NULL,
  hashtags text[] NOT NULL CHECK (cardinality(hashtags) >= 1),
  position integer NOT NULL UNIQUE
);

-- The topics a user follows; PUT /api/users/me/topics replaces the whole set.
CREATE TABLE user_topics (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  topic_id uuid NOT NULL REFERENCES topics (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, topic_id)
);

INSERT INTO topics (id, slug, icon, hashtags, position) VALUES
  ('5e0c8a9e-4f1b-4c33-9a51-0d7c2b8f0001', 'beaches', 'beach', '{beach,beaches,seaside,coast,surf}', 1),
  ('5e0c8a9e-4f1b-4c33-9a51-0d7c2b8f0002', 'mountains', 'mountain', '{mountains,mountain,alps,peak,summit}', 2),
  ('5e0c8a9e-4f1b-4c33-9a51-0d7c2b8f0003', 'hiking', 'hiking', '{hiking,hike,trekking,trail,backpacking}', 3),
  ('5e0c8a9e-4f1b-4c33-9a51-0d7c2b8f0004', 'food', 'utensils', '{food,foodie,streetfood,cuisine,gastronomy}', 4),
  ('5e0c8a9e-4f1b-4c33-9a51-0d7c2b8f0005', 'city-breaks', 'city', '{citybreak,city,cityscape,urban,architecture}', 5),
  ('5e0c8a9e-4f1b-4c33-9a51-0d7c2b8f0006', 'wildlife', 'paw', '{wildlife,animals,safari,birds,birdwatching}', 6),
  ('5e0c8a9e-4f1b-4c33-9a51-0d7c2b8f0007', 'road-trips', 'car', '{roadtrip,roadtrips,vanlife,scenicdrive}', 7),
  ('5e0c8a9e-4f1b-4c33-9a51-0d7c2b8f0008', 'islands', 'island', '{island,islands,islandlife,tropical,archipelago}', 8),
  ('5e0c8a9e-4f1b-4c33-9a51-0d7c2b8f0009', 'culture-heritage', 'landmark', '{culture,heritage,museum,history,unesco}', 9),
  ('5e0c8a9e-4f1b-4c33-9a51-0d7c2b8f0010', 'nightlife', 'moon', '{nightlife,party,bar,cocktails,nightout}', 10),
  ('5e0c8a9e-4f1b-4c33-9a51-0d7c2b8f0011', 'winter-sports', 'snowflake', '{ski,skiing,snowboard,snow,wintersports}', 11),
  ('5e0c8a9e-4f1b-4c33-9a51-0d7c2b8f0012', 'sustainable-travel', 'leaf', '{sustainabletravel,ecotourism,slowtravel,ecotravel,responsibletravel}', 12),
  ('5e0c8a9e-4f1b-4c33-9a51-0d7c2b8f0013', 'photography-spots', 'camera', '{photography,photospot,viewpoint,sunset,landscape}', 13),
  ('5e0c8a9e-4f1b-4c33-9a51-0d7c2b8f0014', 'lakes-rivers', 'water', '{lake,lakes,river,waterfall,kayak}', 14),
  ('5e0c8a9e-4f1b-4c33-9a51-0d7c2b8f0015', 'festivals', 'ticket', '{festival,festivals,carnival,concert,fiesta}', 15);
