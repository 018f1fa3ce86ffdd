-- Whether the provider vouched, at link time, for the account's own address. An identity linked while
-- the account's address was unproven, without that vouching, is dropped when the address is proven by
-- mail (docs/api.md, Sign-in with an identity provider: the pre-hijack rule).
ALTER TABLE user_identities ADD COLUMN proves_account_email boolean NOT NULL DEFAULT false;
