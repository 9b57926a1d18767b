CREATE TABLE "med_rec_items" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "med_rec_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"patient_id" bigint NOT NULL,
	"program_id" bigint NOT NULL,
	"name" text NOT NULL,
	"strength" text,
	"dose" text,
	"frequency" text,
	"route" text,
	"indication" text,
	"prescriber" text,
	"start_date" date,
	"last_taken" date,
	"source" text,
	"notes" text,
	"archived" boolean DEFAULT false NOT NULL,
	"updated_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "med_rec_status" (
	"patient_id" bigint PRIMARY KEY NOT NULL,
	"method" text,
	"reconciled_at" timestamp with time zone,
	"reconciled_by" bigint
);
--> statement-breakpoint
ALTER TABLE "med_rec_items" ADD CONSTRAINT "med_rec_items_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "med_rec_items" ADD CONSTRAINT "med_rec_items_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "med_rec_items" ADD CONSTRAINT "med_rec_items_updated_by_admins_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "med_rec_status" ADD CONSTRAINT "med_rec_status_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "med_rec_status" ADD CONSTRAINT "med_rec_status_reconciled_by_admins_id_fk" FOREIGN KEY ("reconciled_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "med_rec_items_patient_idx" ON "med_rec_items" USING btree ("patient_id","archived","name");