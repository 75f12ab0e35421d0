-- The name of the person who left a seat to a computer (the seat's name becomes the
-- computer's), so that a result can say whose seat the computer played.
ALTER TABLE seats ADD COLUMN left_name TEXT;
