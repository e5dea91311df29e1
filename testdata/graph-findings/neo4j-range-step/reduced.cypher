// ---- setup
CREATE ({id: 127});
// ---- tlp.orig
RETURN range(2, 1, 2) AS c1;
