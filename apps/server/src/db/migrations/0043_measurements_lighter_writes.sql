ALTER TABLE "measurements" DROP CONSTRAINT "measurements_patient_id_patients_id_fk";
--> statement-breakpoint
DROP INDEX "measurements_event_type_unique";--> statement-breakpoint
-- The cascade the foreign key gave, once per statement: a deleted patient's readings go with them.
CREATE FUNCTION measurements_of_deleted_patients() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM measurements m USING old_rows o WHERE m.patient_id = o.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER patients_delete_measurements AFTER DELETE ON patients
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION measurements_of_deleted_patients();
