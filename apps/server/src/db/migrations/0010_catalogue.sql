CREATE TABLE "diagnosis_codes" (
	"code" text PRIMARY KEY NOT NULL,
	"description" text NOT NULL,
	"disease_state" text
);
--> statement-breakpoint
CREATE TABLE "drugs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "drugs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"brands" text[] DEFAULT '{}'::text[] NOT NULL,
	"strengths" text[] DEFAULT '{}'::text[] NOT NULL,
	"routes" text[] DEFAULT '{}'::text[] NOT NULL,
	"forms" text[] DEFAULT '{}'::text[] NOT NULL,
	"indications" text[] DEFAULT '{}'::text[] NOT NULL,
	"search_names" text[] DEFAULT '{}'::text[] NOT NULL,
	CONSTRAINT "drugs_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE INDEX "diagnosis_codes_description_trgm_idx" ON "diagnosis_codes" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "diagnosis_codes_disease_state_idx" ON "diagnosis_codes" USING btree ("disease_state");--> statement-breakpoint
CREATE INDEX "drugs_name_prefix_idx" ON "drugs" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "drugs_search_names_idx" ON "drugs" USING gin ("search_names");