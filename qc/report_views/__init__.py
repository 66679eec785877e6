"""Pages of issue 3 in qc: csqa reports, gold-set exports, id-csqa imports."""
