//! The page with its Russian strings (feature `ru`): public/boot.js loads this build instead of
//! the first-load one when the page is in Russian.
fn main() {
    tunefit_app::mount();
}
