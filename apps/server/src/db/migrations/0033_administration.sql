CREATE TABLE "logos" (
	"owner_type" text NOT NULL,
	"owner_id" bigint NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "logos_owner_type_owner_id_pk" PRIMARY KEY("owner_type","owner_id"),
	CONSTRAINT "logos_owner_type_check" CHECK ("logos"."owner_type" IN ('program', 'enterprise')),
	CONSTRAINT "logos_content_type_check" CHECK ("logos"."content_type" IN ('image/png', 'image/jpeg', 'image/webp')),
	CONSTRAINT "logos_size_check" CHECK (octet_length("logos"."bytes") <= 262144)
);
--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;