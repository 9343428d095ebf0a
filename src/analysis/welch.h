/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Is B different from A over several seeds? Welch's unequal-variances
 * t-test on the two samples (one value per seed and side): the difference
 * of the means, its 95 % confidence interval from Student's t with the
 * Welch-Satterthwaite degrees of freedom, and the two-sided p-value.
 */
#ifndef SRC_ANALYSIS_WELCH_H
#define SRC_ANALYSIS_WELCH_H

#include <stdbool.h>

struct sample_summary {
	int n;
	double mean;
	double var; /* the sample variance (n - 1 in the denominator), 0 for n < 2 */
};

void sample_summarize(const double *x, int n, struct sample_summary *out);

struct welch {
	bool valid;    /* both samples have two values or more */
	double diff;   /* mean(B) - mean(A) */
	double se;     /* its standard error */
	double t, df;  /* the statistic and the Welch-Satterthwaite degrees of freedom */
	double p;      /* two-sided p-value */
	double lo, hi; /* the 95 % confidence interval of diff */
};

#define WELCH_ALPHA 0.05

void welch_test(const struct sample_summary *a, const struct sample_summary *b, struct welch *out);
/* P(|T| >= t) for Student's t with df degrees of freedom (df > 0, not only whole). */
double student_t_two_sided(double t, double df);
/* The t with P(|T| >= t) = p (0 < p < 1). */
double student_t_quantile(double p, double df);

#endif
