CREATE TABLE "patient_app_accounts" (
	"patient_id" bigint PRIMARY KEY NOT NULL,
	"password_hash" text,
	"password_set_at" timestamp with time zone,
	"password_set_by" bigint,
	"code_hash" text,
	"code_expires_at" timestamp with time zone,
	"code_sent_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "patient_app_accounts" ADD CONSTRAINT "patient_app_accounts_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_app_accounts" ADD CONSTRAINT "patient_app_accounts_password_set_by_admins_id_fk" FOREIGN KEY ("password_set_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;