CREATE TABLE "fhir_client_assertions" (
	"client_id" bigint NOT NULL,
	"jti" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "fhir_client_assertions_client_id_jti_pk" PRIMARY KEY("client_id","jti")
);
--> statement-breakpoint
CREATE TABLE "fhir_clients" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "fhir_clients_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"program_id" bigint NOT NULL,
	"client_id" text NOT NULL,
	"name" text NOT NULL,
	"jwks" jsonb NOT NULL,
	"scopes" text[] NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "fhir_client_assertions" ADD CONSTRAINT "fhir_client_assertions_client_id_fhir_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."fhir_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fhir_clients" ADD CONSTRAINT "fhir_clients_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fhir_clients" ADD CONSTRAINT "fhir_clients_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fhir_client_assertions_expiry_idx" ON "fhir_client_assertions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "fhir_clients_client_id_unique" ON "fhir_clients" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "fhir_clients_program_idx" ON "fhir_clients" USING btree ("program_id","id");--> statement-breakpoint
CREATE INDEX "patients_program_id_idx" ON "patients" USING btree ("program_id","id");