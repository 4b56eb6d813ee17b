// geobayes' embedding models in Stan: y ~ family(h(theta)), theta ~ N(0, Sigma_pi).
//
// The same decomposition as geobayes.models.embedding_model.EmbeddingModel (Yu et al. 2024,
// Sec. 4.3.3; Hartmann et al. 2026, Sec. 3): an embedding h of the parameters onto the natural
// (or mean) parameters of a likelihood family, and a zero-mean Gaussian prior. One program serves
// every model family the references cover, so a run compiles it once (about 45 CPU s); the
// family, the embedding and their data come from geobayes.stan.export.
//
// theta = L z with z ~ N(0, I) and L the prior's Cholesky factor (the non-centred
// parametrisation NumPyro's reference uses for kernel priors, geobayes.whitened_target): the
// Jacobian of theta = L z is constant, so the draws of theta follow the posterior exactly.
functions {
  // Logistic growth C(t) = C0 K / (C0 + (K - C0) exp(-r t)) (Hartmann et al. 2026, Sec. 6).
  vector logistic_curve(vector t, real r, real c0, real k) {
    return c0 * k ./ (c0 + (k - c0) * exp(-r * t));
  }

  // Fully connected network in torch's nn.Sequential order (per layer the (out, in) weight
  // row-major, then the bias): geobayes.networks.mlp.MultilayerPerceptron. One output.
  vector mlp(vector w, matrix X, array[] int widths, int activation) {
    int layers = size(widths) - 1;
    matrix[rows(X), max(widths)] h;
    int width = widths[1];
    int start = 1;
    h[:, 1:width] = X;
    for (l in 1:layers) {
      int fan_out = widths[l + 1];
      matrix[fan_out, width] weight = to_matrix(w[start:(start + width * fan_out - 1)], width, fan_out)';
      vector[fan_out] bias;
      matrix[rows(X), fan_out] a;
      start += width * fan_out;
      bias = w[start:(start + fan_out - 1)];
      start += fan_out;
      a = h[:, 1:width] * weight' + rep_matrix(bias', rows(X));
      if (l < layers) {
        if (activation == 1) {
          a = tanh(a);
        } else {
          a = a .* inv_logit(a);  // SiLU
        }
      }
      h[:, 1:fan_out] = a;
      width = fan_out;
    }
    return h[:, 1];
  }
}
data {
  int<lower=1> D;                        // parameters
  int<lower=0> N;                        // observations
  int<lower=1, upper=4> embedding;       // 1 affine E theta + c, 2 banana, 3 logistic growth, 4 network
  int<lower=1, upper=5> family;          // 1 Bernoulli (logit), 2 Poisson (log), 3 Gaussian, fixed variance,
                                         // 4 Gaussian, mean and variance, 5 categorical (last class reference)
  vector[N] y_real;                      // observations of the Gaussian families
  array[N] int y_int;                    // observations of the discrete families (classes 1 .. C)
  int<lower=1> K;                        // natural parameters per observation (C - 1 for categorical)
  real<lower=0> noise_variance;          // family 3
  // embedding 1: h = E theta + c (any affine model: GLMs, latent GPs, the multinomial GP)
  int<lower=0> R;
  matrix[R, D] E;
  vector[R] c;
  // embeddings 3 and 4: inputs (times for growth, covariates for a network)
  int<lower=0> P;
  matrix[N, P] X;
  // embedding 4: layer widths (d_in, k_1, ..., 1), activation (1 tanh, 2 SiLU), and whether the
  // last parameter is the log noise variance (family 4) instead of a fixed one (family 3)
  int<lower=0> layers;
  array[layers + 1] int widths;
  int<lower=1, upper=2> activation;
  int<lower=0, upper=1> inferred_noise;
  // the prior: theta = prior_scale * z (isotropic) or L z (dense)
  int<lower=0, upper=1> dense_prior;
  real<lower=0> prior_scale;
  matrix[dense_prior ? D : 0, dense_prior ? D : 0] L;
}
transformed data {
  // The affine embedding composed with the prior's factor: one matrix-vector product per density.
  matrix[R, D] EL = dense_prior ? E * L : prior_scale * E;
}
parameters {
  vector[D] z;
}
transformed parameters {
  vector[D] theta = dense_prior ? L * z : prior_scale * z;
}
model {
  vector[family == 4 ? N + 1 : N * K] h;
  if (embedding == 1) {
    h = EL * z + c;
  } else if (embedding == 2) {
    h = rep_vector(theta[1] + square(theta[2]), N);  // Yu et al. (2024), Sec. 5.2
  } else if (embedding == 3) {
    h = append_row(logistic_curve(X[:, 1], exp(theta[1]), exp(theta[2]), exp(theta[3])), exp(theta[4]));
  } else {
    if (inferred_noise) {
      h = append_row(mlp(theta[1:(D - 1)], X, widths, activation), exp(theta[D]));
    } else {
      h = mlp(theta, X, widths, activation);
    }
  }

  target += std_normal_lpdf(z);
  if (family == 1) {
    target += bernoulli_logit_lpmf(y_int | h);
  } else if (family == 2) {
    target += poisson_log_lpmf(y_int | h);
  } else if (family == 3) {
    target += normal_lpdf(y_real | h, sqrt(noise_variance));
  } else if (family == 4) {
    target += normal_lpdf(y_real | h[1:N], sqrt(h[N + 1]));
  } else {
    for (n in 1:N) {
      vector[K + 1] eta = append_row(h[((n - 1) * K + 1):(n * K)], 0);
      target += categorical_logit_lpmf(y_int[n] | eta);
    }
  }
}
