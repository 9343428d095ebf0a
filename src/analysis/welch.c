// SPDX-License-Identifier: GPL-2.0
/* Welch's t-test and Student's t distribution (welch.h). */
#include <math.h>

#include "welch.h"

void sample_summarize(const double *x, int n, struct sample_summary *out)
{
	double sum = 0, ss = 0;

	out->n = n;
	for (int i = 0; i < n; i++)
		sum += x[i];
	out->mean = n ? sum / n : 0;
	/* two passes: the squares of the deviations, not the difference of two large sums */
	for (int i = 0; i < n; i++)
		ss += (x[i] - out->mean) * (x[i] - out->mean);
	out->var = n > 1 ? ss / (n - 1) : 0;
}

/* The continued fraction of the incomplete beta function (modified Lentz). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2 * m, num, del;

		num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + num * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* the fraction converges fast on this side of the mean; use the symmetry on the other */
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double student_t_two_sided(double t, double df)
{
	if (isinf(t))
		return 0;
	return beta_inc(df / 2, 0.5, df / (df + t * t));
}

double student_t_quantile(double p, double df)
{
	double lo = 0, hi = 1;

	while (student_t_two_sided(hi, df) > p && hi < 1e12)
		hi *= 2;
	/* the tail falls as t grows: bisect to the last bit */
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (student_t_two_sided(mid, df) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void welch_test(const struct sample_summary *a, const struct sample_summary *b, struct welch *out)
{
	double va, vb, q;

	out->diff = b->mean - a->mean;
	out->valid = a->n > 1 && b->n > 1;
	if (!out->valid) {
		out->se = out->t = out->df = 0;
		out->p = 1;
		out->lo = out->hi = out->diff;
		return;
	}
	va = a->var / a->n;
	vb = b->var / b->n;
	out->se = sqrt(va + vb);
	if (out->se == 0) {
		/* every seed gave the same value on each side: the difference is certain */
		out->t = out->diff == 0 ? 0 : copysign(INFINITY, out->diff);
		out->df = a->n + b->n - 2;
		out->p = out->diff == 0 ? 1 : 0;
		out->lo = out->hi = out->diff;
		return;
	}
	out->t = out->diff / out->se;
	out->df = (va + vb) * (va + vb) / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	out->p = student_t_two_sided(out->t, out->df);
	q = student_t_quantile(WELCH_ALPHA, out->df);
	out->lo = out->diff - q * out->se;
	out->hi = out->diff + q * out->se;
}
