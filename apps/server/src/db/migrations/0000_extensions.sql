-- Trigram matching for substring name search (patients list).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
