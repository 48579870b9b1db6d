-- Blob bodies are PDFs and images, compressed already: PostgreSQL's TOAST compression only spends
-- time on them. EXTERNAL keeps them out of line, uncompressed (rows written before keep theirs).
ALTER TABLE "blobs" ALTER COLUMN "body" SET STORAGE EXTERNAL;
