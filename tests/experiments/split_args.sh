# Sourced by the class experiments (class_real.sh, classroom_model.sh): SPLIT_ARGS, the
# options of a class's way of splitting named by $SPLIT: `paced` (jobs sized to the relay's
# round trip, the default) or `papers` (`--papers-split`, as the papers' machines split).
case "$SPLIT" in
  paced) SPLIT_ARGS=() ;;
  papers) SPLIT_ARGS=(--papers-split) ;;
  *) echo "SPLIT is paced or papers, not '$SPLIT'" >&2; exit 2 ;;
esac
