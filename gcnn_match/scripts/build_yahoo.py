"""Build the Yahoo! Answers MQA candidate sets of Liu et al. (2016) from your copy of the corpus.

    python experiments/build_yahoo.py --xml=/path/to/FullOct2007.xml.gz --data_dir=data

Writes {data_dir}/yahoo/{train,dev,test,test_10}.tsv (question, answer, label, group) and
summary.json: the paper's two test settings in one build, the best answer among 5 candidates
(test) and among 10 (test_10, the same questions; their 4 negatives are among the 9).
"""

import json
import pathlib

from absl import flags

from gcnn_match import cli
from gcnn_match.data import yahoo
from gcnn_match.data.reading import ReaderError, ReadStats

FLAGS = flags.FLAGS
flags.DEFINE_string("xml", None, "The Webscope Yahoo! Answers XML file (.xml or .xml.gz).")
flags.DEFINE_string("data_dir", "data", "Root: the sets go to {data_dir}/yahoo/.")
flags.DEFINE_integer("num_negatives", 4, "Negatives per train/dev/test question (P@1 among 5).")
flags.DEFINE_bool("test_10", True, "Also write the test questions among 10 candidates.")
flags.DEFINE_integer("top_k", 1000, "BM25 results the negatives are drawn from.")
flags.DEFINE_integer("seed", 1, "Fixes the split and the negatives.")
flags.DEFINE_integer("min_length", 4, "Shortest question / answer kept, in tokens.")
flags.DEFINE_integer("max_length", 30, "Longest question / answer kept, in tokens.")
flags.DEFINE_enum(
    "question_fields",
    "subject",
    yahoo.QUESTION_FIELDS,
    "The question text: the subject line, or subject and details.",
)
flags.DEFINE_enum(
    "answer_pool",
    "kept",
    yahoo.ANSWER_POOLS,
    "BM25 searches the best answers of the kept pairs, or every best answer read.",
)
flags.mark_flag_as_required("xml")


def main(argv):
    del argv
    config = yahoo.BuildConfig(
        num_negatives=FLAGS.num_negatives,
        test_10=FLAGS.test_10,
        top_k=FLAGS.top_k,
        seed=FLAGS.seed,
        min_length=FLAGS.min_length,
        max_length=FLAGS.max_length,
        question_fields=FLAGS.question_fields,
        answer_pool=FLAGS.answer_pool,
    )
    path = pathlib.Path(FLAGS.xml)
    if not path.is_file():
        print(f"{path}: no such file; pass --xml=<your copy of the Yahoo! Answers XML>")
        return 1
    stats = ReadStats()
    try:
        sets = yahoo.build_candidate_sets(yahoo.read_yahoo_xml(path, stats), config)
    except (ReaderError, ValueError) as err:
        print(err)
        return 1
    source = {
        "file": str(path.resolve()),
        "bytes": path.stat().st_size,
        "lines": stats.lines,
        "documents_skipped": stats.skipped,
    }
    paths = yahoo.write_candidate_sets(sets, pathlib.Path(FLAGS.data_dir) / "yahoo", source)
    print(json.dumps({**sets.summary, "source": source}, indent=2))
    print("wrote " + ", ".join(str(p) for p in paths.values()))
    return 0


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
