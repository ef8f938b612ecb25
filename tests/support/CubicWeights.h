#pragma once

// ATen's cubic convolution weights of the four taps around fraction t, coefficient a (-0.75 for
// upsample_bicubic2d: aten/src/ATen/native/UpSample.h, get_cubic_upsample_coefficients), in float64.
namespace resizeref {

inline void cubicWeights(double t, double a, double w[4])
{
    const auto near = [a](double x) { return ((a + 2) * x - (a + 3)) * x * x + 1; };
    const auto far = [a](double x) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; };
    w[0] = far(t + 1);
    w[1] = near(t);
    w[2] = near(1 - t);
    w[3] = far(2 - t);
}

} // namespace resizeref
