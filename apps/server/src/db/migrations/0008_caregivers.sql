CREATE TABLE "caregivers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "caregivers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"program_id" bigint NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"relationship" text NOT NULL,
	"phone_number" text,
	"email" text,
	"notes" text,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "caregivers_reachable" CHECK ("caregivers"."phone_number" IS NOT NULL OR "caregivers"."email" IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "patient_caregivers" (
	"patient_id" bigint NOT NULL,
	"caregiver_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patient_caregivers_patient_id_caregiver_id_pk" PRIMARY KEY("patient_id","caregiver_id")
);
--> statement-breakpoint
ALTER TABLE "caregivers" ADD CONSTRAINT "caregivers_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "caregivers" ADD CONSTRAINT "caregivers_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_caregivers" ADD CONSTRAINT "patient_caregivers_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_caregivers" ADD CONSTRAINT "patient_caregivers_caregiver_id_caregivers_id_fk" FOREIGN KEY ("caregiver_id") REFERENCES "public"."caregivers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "caregivers_program_name_idx" ON "caregivers" USING btree ("program_id","last_name","first_name");--> statement-breakpoint
CREATE INDEX "patient_caregivers_caregiver_idx" ON "patient_caregivers" USING btree ("caregiver_id");