// ---- setup
// ---- tlp.orig
RETURN toInteger(-2.25) AS c0;
