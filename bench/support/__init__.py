"""What the benchmarks of ``bench/`` share with the tests, which import it
from here (a benchmark never imports the tests)."""
