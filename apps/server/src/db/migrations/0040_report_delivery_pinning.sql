ALTER TABLE "report_runs" DROP CONSTRAINT "report_runs_delivery_check";--> statement-breakpoint
DROP INDEX "report_runs_queue_idx";--> statement-breakpoint
ALTER TABLE "report_destinations" ADD COLUMN "host_key" text;--> statement-breakpoint
ALTER TABLE "report_runs" ADD COLUMN "delivery_started_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "report_runs_queue_idx" ON "report_runs" USING btree ("created_at") WHERE "report_runs"."status" = 'queued' OR "report_runs"."delivery" IN ('pending', 'sending');--> statement-breakpoint
ALTER TABLE "report_runs" ADD CONSTRAINT "report_runs_delivery_check" CHECK ("report_runs"."delivery" IN ('none', 'pending', 'sending', 'sent', 'failed'));