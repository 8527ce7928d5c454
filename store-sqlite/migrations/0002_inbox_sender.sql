-- The party that sent an inbox event (a Gate's invoke id, an Agent slot's key), where one did:
-- the run takes the event as that party's (the kit's `sentBy` guards read it). NULL: an event
-- from no party (`Host::send`).
ALTER TABLE inbox ADD COLUMN sender TEXT;
