-- Holds number 7, which changes nothing: migration numbers run without gaps.
SELECT 1;
