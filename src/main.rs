fn main() {
    tunefit_app::mount();
}
