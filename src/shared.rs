//! A computed result or a model shared by every part of a view that shows it, in a signal:
//! equality is identity, so a new computation is always a change and comparing never walks
//! the matrices.

use std::sync::Arc;

/// `T` shared, compared by identity.
#[derive(Debug)]
pub struct Shared<T: ?Sized>(pub Arc<T>);

impl<T: ?Sized> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

impl<T: ?Sized> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
